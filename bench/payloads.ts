/** The records the generator makes, in the shapes the public API's write routes accept (docs/api.md). */

export interface PlanPayload {
  id: string;
  name: string;
  billing_freq: 'month' | 'quarter' | 'year';
  billing_freq_count: number;
  product_name: string;
  currency: string;
}

export interface CustomerPayload {
  id: string;
  name: string;
  email: string;
  created_date: string;
  country: string;
  state?: string;
  currency: string;
  status?: 'active' | 'cancelled';
  trial_started?: string;
  trial_end_date?: string;
  paid_started?: string;
  cancel_date?: string;
  cancel_reason?: string;
  custom_variables: Record<string, string>;
}

export interface LinePayload {
  type: 'subscription' | 'one_time';
  subscription_id?: string;
  plan_id?: string;
  description: string;
  amount: number;
  quantity: number;
  period_start?: string;
  period_end?: string;
  discount: number;
  tax: number;
  prorated: boolean;
}

export interface TransactionPayload {
  id: string;
  date: string;
  type: 'payment' | 'refund';
  result: 'successful' | 'failed';
  amount: number;
  payment_method: string;
}

export interface InvoicePayload {
  id: string;
  customer_id: string;
  date: string;
  due_date: string;
  currency: string;
  status: 'paid' | 'open' | 'uncollectible';
  number: string;
  payment_date?: string;
  amount: number;
  lines: LinePayload[];
  transactions: TransactionPayload[];
}

export interface SubscriptionPayload {
  id: string;
  customer_id: string;
  plan_id: string;
  quantity: number;
  status: 'active' | 'trialing' | 'past_due' | 'canceled';
  started_at: string;
  cancel_requested_at?: string;
  cancel_at?: string;
  ended_at?: string;
  currency: string;
}

/** Everything one customer brings: its record, its invoices and its subscription records. */
export interface CustomerRecords {
  customer: CustomerPayload;
  invoices: InvoicePayload[];
  subscriptions: SubscriptionPayload[];
}
