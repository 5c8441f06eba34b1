import { dayString } from '../src/engine/days.js';
import { periodStart } from '../src/engine/periods.js';
import { PER_US_CENT } from './catalog.js';
import { type Timing, timeSequential } from './stats.js';
import { withClient } from './stores.js';

/**
 * What a hand-rolled analytics would compute straight from the raw tables with SQL: the same
 * families of figures as the reports, over the same data, on the same PostgreSQL database.
 * Exchange rates are one fixed rate per currency, as such a setup often has.
 */

export type BaselineName = 'mrr-movements' | 'cohorts' | 'customers-page' | 'transactions';

export const BASELINE_TITLES: Record<BaselineName, string> = {
  'mrr-movements': 'MRR by month with movements (SQL)',
  cohorts: 'Cohort table, 12 months (SQL)',
  'customers-page': 'Customers page by MRR (SQL)',
  transactions: 'Payments and refunds by month (SQL)',
};

/** The SQL family each report is compared with. */
export function baselineFor(path: string): BaselineName {
  if (path === '/customers' || path === '/reports/customer-concentration') return 'customers-page';
  if (path === '/reports/cohort') return 'cohorts';
  if (/transactions|cashflow|invoices/.test(path)) return 'transactions';
  return 'mrr-movements';
}

const RATES = `rates (currency, to_usd) as (values ${Object.entries(PER_US_CENT)
  .map(([currency, perUsCent]) => `('${currency}', ${1 / perUsCent}::float8)`)
  .join(', ')})`;

/** Months of the range, plus the month before it so that the first month has a previous value. */
const MONTHS = `months (month_start, month_end) as (
  select m::date, least((m + interval '1 month' - interval '1 day')::date, $3::date)
  from generate_series(date_trunc('month', $2::date) - interval '1 month', $3::date, interval '1 month') m
)`;

/** Each counted subscription line's monthly value in US cents: its amount per 30.4375 days of its period. */
const LINE_MRR = `line_mrr as (
  select l.data_source_id, i.customer_id, l.period_start, l.period_end,
    l.amount * 30.4375 / (l.period_end - l.period_start) * r.to_usd as monthly
  from invoice_lines l
  join invoices i on i.account_id = l.account_id and i.data_source_id = l.data_source_id
    and i.invoice_id = l.invoice_id
  join rates r on r.currency = i.currency
  where l.account_id = $1 and l.type = 'subscription' and i.status not in ('draft', 'void')
)`;

/** MRR on each month's last day per customer. */
const CUSTOMER_MONTH = `customer_month as (
  select lm.data_source_id, lm.customer_id, m.month_start, greatest(sum(lm.monthly), 0) as mrr
  from line_mrr lm join months m on lm.period_start <= m.month_end and lm.period_end > m.month_end
  group by 1, 2, 3
)`;

const SQL: Record<BaselineName, string> = {
  'mrr-movements': `
with ${RATES}, ${MONTHS}, ${LINE_MRR}, ${CUSTOMER_MONTH},
first_paid as (
  select data_source_id, customer_id, min(period_start) as first_day from line_mrr group by 1, 2
),
grid as (
  select c.data_source_id, c.customer_id, m.month_start, coalesce(cm.mrr, 0) as mrr
  from (select distinct data_source_id, customer_id from customer_month) c
  cross join months m
  left join customer_month cm using (data_source_id, customer_id, month_start)
),
changes as (
  select grid.*, lag(mrr) over (partition by data_source_id, customer_id order by month_start) as previous
  from grid
),
classified as (
  select c.month_start, c.mrr, c.mrr - c.previous as delta,
    case
      when c.previous = 0 and c.mrr > 0 then
        case when f.first_day >= c.month_start then 'new' else 'reactivation' end
      when c.previous > 0 and c.mrr = 0 then 'churn'
      when c.mrr > c.previous then 'expansion'
      when c.mrr < c.previous then 'contraction'
    end as kind
  from changes c join first_paid f using (data_source_id, customer_id)
  where c.previous is not null
)
select month_start,
  round(coalesce(sum(delta) filter (where kind = 'new'), 0)) as new,
  round(coalesce(sum(delta) filter (where kind = 'expansion'), 0)) as expansion,
  round(coalesce(sum(delta) filter (where kind = 'contraction'), 0)) as contraction,
  round(coalesce(sum(delta) filter (where kind = 'churn'), 0)) as churn,
  round(coalesce(sum(delta) filter (where kind = 'reactivation'), 0)) as reactivation,
  count(*) filter (where kind = 'new') as new_customers,
  count(*) filter (where kind = 'churn') as churn_customers,
  round(sum(mrr)) as total_mrr,
  count(*) filter (where mrr > 0) as total_customers
from classified
group by month_start
order by month_start`,

  cohorts: `
with ${RATES}, ${MONTHS}, ${LINE_MRR}, ${CUSTOMER_MONTH},
cohort as (
  select data_source_id, customer_id, date_trunc('month', min(period_start))::date as cohort
  from line_mrr group by 1, 2
)
select c.cohort,
  ((extract(year from cm.month_start) - extract(year from c.cohort)) * 12
    + extract(month from cm.month_start) - extract(month from c.cohort))::int as months_since,
  count(*) as customers,
  round(sum(cm.mrr)) as mrr
from cohort c join customer_month cm using (data_source_id, customer_id)
where c.cohort >= date_trunc('month', $2::date) and cm.mrr > 0
group by 1, 2
order by 1, 2`,

  'customers-page': `
with ${RATES},
mrr_today as (
  select l.data_source_id, i.customer_id,
    sum(l.amount * 30.4375 / (l.period_end - l.period_start) * r.to_usd) as mrr
  from invoice_lines l
  join invoices i on i.account_id = l.account_id and i.data_source_id = l.data_source_id
    and i.invoice_id = l.invoice_id
  join rates r on r.currency = i.currency
  where l.account_id = $1 and l.type = 'subscription' and i.status not in ('draft', 'void')
    and l.period_start <= $2::date and l.period_end > $2::date
  group by 1, 2
  having sum(l.amount) > 0
)
select c.customer_id, c.name, c.email, c.country, c.currency, c.created_date, c.paid_started,
  round(m.mrr) as mrr
from mrr_today m
join customers c on c.account_id = $1 and c.data_source_id = m.data_source_id and c.customer_id = m.customer_id
order by m.mrr desc, c.customer_id
limit 100`,

  transactions: `
with ${RATES}
select date_trunc('month', t.date)::date as month,
  round(coalesce(sum(t.amount * r.to_usd) filter (where t.type = 'payment' and t.result = 'successful'), 0)) as payments,
  round(coalesce(sum(t.amount * r.to_usd) filter (where t.type = 'refund' and t.result = 'successful'), 0)) as refunds,
  count(*) filter (where t.type = 'payment' and t.result = 'successful') as payment_count,
  count(*) filter (where t.type = 'refund' and t.result = 'successful') as refund_count,
  count(*) filter (where t.result = 'failed') as failed_count
from invoice_transactions t
join invoices i on i.account_id = t.account_id and i.data_source_id = t.data_source_id
  and i.invoice_id = t.invoice_id
join rates r on r.currency = i.currency
where t.account_id = $1 and t.date >= $2::date and t.date < $3::date + 1
group by 1
order by 1`,
};

export interface SqlBaseline {
  name: BaselineName;
  timing: Timing;
  rows: number;
  /** The answer's last row: for the MRR baseline, the latest month, to set beside the service's figures. */
  lastRow: Record<string, unknown> | undefined;
}

export interface Limits {
  minSamples: number;
  maxSamples: number;
  budgetMs: number;
}

/** Times each SQL baseline after one untimed run, on freshly analysed tables. */
export async function measureSqlBaselines(
  databaseUrl: string,
  range: { from: number; to: number },
  limits: Limits,
): Promise<SqlBaseline[]> {
  return withClient(databaseUrl, async (client) => {
    await client.query('analyze');
    // JIT compilation took 2 to 3 s of each MRR query at 1,000 and 10,000 customers (the
    // planner overestimates the month series); a tuned hand-rolled setup would turn it off.
    await client.query('set jit = off');
    const accounts = await client.query<{ account_id: string }>('select account_id from accounts');
    const accountId = accounts.rows[0]?.account_id;
    if (accounts.rows.length !== 1 || accountId === undefined)
      throw new Error(`expected one account, found ${accounts.rows.length}`);
    const [from, to] = [dayString(range.from), dayString(range.to)];
    const results: SqlBaseline[] = [];
    for (const name of Object.keys(SQL) as BaselineName[]) {
      // The customers page is as of today; the others cover the range.
      const params = name === 'customers-page' ? [accountId, to] : [accountId, from, to];
      const run = () => client.query<Record<string, unknown>>(SQL[name], params);
      const { rows } = await run();
      results.push({
        name,
        rows: rows.length,
        lastRow: rows.at(-1),
        timing: await timeSequential(run, limits),
      });
    }
    return results;
  });
}

const KINDS = ['new', 'expansion', 'contraction', 'churn', 'reactivation'];

/**
 * The floor: the engine's own movements in bare typed arrays (day, kind, amount in US cents),
 * summed by month and kind over the range in one loop. No report can be faster than reading
 * its input once.
 */
export async function measureFloor(
  databaseUrl: string,
  range: { from: number; to: number },
  limits: Limits,
): Promise<{ timing: Timing; movements: number }> {
  const { rows } = await withClient(databaseUrl, (client) =>
    client.query<{ day: number; kind: string; amount: string; currency: string }>(
      `select m.day - date '1970-01-01' as day, m.kind, m.amount, cm.currency
       from mrr_movements m
       join customer_metrics cm using (account_id, data_source_id, customer_id)`,
    ),
  );
  const days = new Int32Array(rows.length);
  const kinds = new Uint8Array(rows.length);
  const amounts = new Float64Array(rows.length);
  rows.forEach((row, index) => {
    days[index] = row.day;
    kinds[index] = KINDS.indexOf(row.kind);
    amounts[index] = Number(row.amount) / (PER_US_CENT[row.currency] ?? 1);
  });
  // Day -> month of the range, computed once, as a report's period table would be.
  const monthOf = new Int32Array(range.to - range.from + 1);
  let month = 0;
  for (let day = range.from; day <= range.to; day++) {
    if (day > range.from && periodStart(day, 'month') === day) month += 1;
    monthOf[day - range.from] = month;
  }
  const sums = new Float64Array((month + 1) * KINDS.length);
  const scan = () => {
    sums.fill(0);
    for (let i = 0; i < days.length; i++) {
      const offset = days[i]! - range.from;
      if (offset < 0 || offset >= monthOf.length) continue;
      sums[monthOf[offset]! * KINDS.length + kinds[i]!]! += amounts[i]!;
    }
    return sums;
  };
  return { timing: await timeSequential(scan, limits), movements: rows.length };
}
