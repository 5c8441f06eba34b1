/** The fields of the API's report rows that the dashboard reads (see /openapi.json). */
export interface MrrRow {
  date: string;
  end_date: string;
  new: number;
  expansion: number;
  contraction: number;
  churn: number;
  reactivation: number;
  total_mrr: number;
  total_arr: number;
  total_customers: number;
  arpa: number | null;
}

export interface MrrReport {
  currency: string;
  result: MrrRow[];
}

export interface RetentionRow {
  date: string;
  customer_churn_rate: number | null;
}

export interface RetentionReport {
  currency: string;
  result: RetentionRow[];
}

export const MOVEMENTS = ['new', 'expansion', 'reactivation', 'contraction', 'churn'] as const;
