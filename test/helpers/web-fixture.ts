import type { TestAccount, TestApp } from './app.js';

const line = (amount: number, period_start: string, period_end: string) => ({
  plan_id: 'basic',
  amount,
  period_start,
  period_end,
});

const transaction = (id: string, date: string, amount: number, type = 'payment', result = 'successful') => ({
  id,
  date: `${date}T10:00:00Z`,
  type,
  result,
  amount,
  payment_method: 'card',
});

/** Besides the payment of each invoice on its day: Alpha's March card fails once, Gamma gets 20 back in June. */
const EXTRA: Record<string, ReturnType<typeof transaction>[]> = {
  'alpha-3': [transaction('alpha-3-failed', '2026-03-01', 5000, 'payment', 'failed')],
  'gamma-6': [transaction('gamma-6-refund', '2026-06-10', 2000, 'refund')],
};

/**
 * Monthly invoices from `from` (a month number of 2026) to November, at `amount` cents a month,
 * each paid on its day.
 */
function monthly(customer: string, amount: number, from: number, to = 11) {
  return Array.from({ length: to - from + 1 }, (_, index) => {
    const month = from + index;
    const id = `${customer}-${month}`;
    const start = `2026-${String(month).padStart(2, '0')}-01`;
    const end = month === 12 ? '2027-01-01' : `2026-${String(month + 1).padStart(2, '0')}-01`;
    return {
      id,
      customer_id: customer,
      currency: 'usd',
      date: start,
      lines: [line(amount, start, end)],
      transactions: [...(EXTRA[id] ?? []), transaction(`${id}-paid`, start, amount)],
    };
  });
}

/**
 * The browser tests' account: Alpha pays 50 USD a month from January and still does today
 * (November 23); Beta from February to April, then churns; Gamma joins in May at twice the price.
 */
export async function seedWebFixture(t: TestApp, account: TestAccount): Promise<void> {
  const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
  await post('/data/plans', [{ id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' }]);
  await post('/data/customers', [
    { id: 'alpha', name: 'Alpha', country: 'US', currency: 'usd', created_date: '2026-01-01' },
    { id: 'beta', name: 'Beta', country: 'DE', currency: 'usd', created_date: '2026-02-01' },
    { id: 'gamma', name: 'Gamma', country: 'FR', currency: 'usd', created_date: '2026-05-01' },
  ]);
  await post('/data/invoices', [
    ...monthly('alpha', 5000, 1),
    ...monthly('beta', 5000, 2, 4),
    ...monthly('gamma', 10000, 5),
  ]);
}

/**
 * The churn-rate card's figure for a `/reports/retention` row: its rate, or null (shown "–")
 * for a period without a cohort, whose rate the API answers as 0 over nothing.
 */
export function churnShown(row: { cohort_customers: number; customer_churn_rate: number }): number | null {
  return row.cohort_customers > 0 ? row.customer_churn_rate : null;
}
