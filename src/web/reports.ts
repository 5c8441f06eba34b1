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
  /** 0 without customers. */
  arpa: number;
}

export interface MrrReport {
  currency: string;
  result: MrrRow[];
}

/** A period of `/reports/retention`: its rates are 0 without a cohort, its LTV 0 without churn. */
export interface RetentionRow {
  date: string;
  cohort_customers: number;
  retained_customers: number;
  nrr: number;
  grr: number;
  customer_churn_rate: number;
  mrr_churn_rate: number;
  net_mrr_churn_rate: number;
  customer_churn_avg: number;
  arpa: number;
  ltv: number;
}

export interface RetentionReport {
  currency: string;
  result: RetentionRow[];
}

export const MOVEMENTS = ['new', 'expansion', 'reactivation', 'contraction', 'churn'] as const;

export interface CohortPeriod {
  mrr_retained: number;
  customers_retained: number;
  mrr_retention: number;
  customer_retention: number;
}

/** A cohort of `/reports/cohort`; the last one is the average, with periods only. */
export interface Cohort {
  cohort_group: string;
  label?: string;
  initial_mrr?: number;
  initial_customers?: number;
  periods: CohortPeriod[];
}

export interface CohortReport {
  currency: string;
  result: { list: Cohort[] };
}

/** A period of `/reports/leads`; rates in percent and days, 0 with nothing to divide by. */
export interface LeadsRow {
  date: string;
  leads: number;
  trials: number;
  leads_converted: number;
  trials_converted: number;
  lead_to_trial_rate: number;
  trial_to_paid_rate: number;
  lead_to_paid_rate: number;
  lead_to_paid_days: number;
  trial_to_paid_days: number;
}

export interface LeadsReport {
  currency: string;
  result: LeadsRow[];
}

export type LeadsSummary = { currency: string; summary: Record<string, number | null> };

/** A period of `/reports/transactions`: money in cents of the base currency. */
export interface TransactionsRow {
  date: string;
  payments: number;
  refund: number;
  net_amount: number;
  payment_count: number;
  refund_count: number;
}

export interface FailedPaymentsRow {
  date: string;
  failed_amount: number;
  recovered: number;
  still_unpaid: number;
  churned: number;
  failed_invoices: number;
}

export interface RefundsRow {
  date: string;
  refund_amount: number;
  refund_count: number;
  customers_refunded: number;
}

export interface FailureRateRow {
  date: string;
  attempted_invoices: number;
  failed_invoices: number;
  /** 0 without attempted invoices. */
  failure_rate: number;
}

export interface Series<Row> {
  currency: string;
  result: Row[];
}

/** `/reports/cashflow-outstanding-unpaid`: `outstanding_<age>` cents and `invoices_<age>` counts. */
export interface OutstandingReport {
  currency: string;
  summary: Record<string, number>;
}

/** A country's figures in `/reports/map`: MRR and subscribers on the range's last day, the rest over it. */
export interface CountryFigures {
  current_mrr: number;
  subscribers: number;
  /** Ratios, rates and shares are 0 with nothing to divide by. */
  arpa: number;
  customer_churn_rate: number;
  ltv: number;
  leads: number;
  new_trials: number;
  payment_failure_rate: number;
  mrr_percent: number;
}

export interface MapReport {
  currency: string;
  result: { list: Record<string, CountryFigures>; unknown: CountryFigures | null };
}

/** `/reports/customer-concentration`: customers paying today, ranked by MRR; shares in percent. */
export interface ConcentrationReport {
  currency: string;
  result: {
    concentration: Record<
      'top_1_pct' | 'top_5_pct' | 'top_10_pct' | 'top_20_pct' | 'top_10_percent_pct',
      number | null
    >;
    list: {
      id: string;
      name: string | null;
      country: string | null;
      mrr: number;
      share_pct: number | null;
    }[];
    summary: { total_mrr: number; customers: number };
  };
}

/** A period of `/reports/churn-scheduled`, from tomorrow: movements already scheduled, negative cents. */
export interface ScheduledRow {
  date: string;
  churn: number;
  contraction: number;
  churn_customers: number;
  contraction_customers: number;
  total_mrr: number;
}

/** `/reports/cmrr-summary`: committed MRR today and in 30 to 365 days. */
export interface CmrrSummary {
  currency: string;
  summary: Record<'cmrr_current' | 'cmrr_30' | 'cmrr_60' | 'cmrr_180' | 'cmrr_365', number>;
}
