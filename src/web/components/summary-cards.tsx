import { count, money, percent, relativeChange, signed } from '../format.js';
import type { MrrRow, RetentionRow } from '../reports.js';

export interface Card {
  metric: string;
  label: string;
  value: number | null;
  text: string;
  /** Change against the previous period, already with its unit. */
  change: string | null;
  /** Whether the change is good news: churn going up is not. */
  good: boolean | null;
}

function changeOf(now: number | null, before: number | null | undefined, higherIsBetter = true) {
  const change = relativeChange(now, before);
  if (change === null) return { change: null, good: null };
  return { change: signed(change, '%'), good: change === 0 ? null : change > 0 === higherIsBetter };
}

type Churn = Pick<RetentionRow, 'date' | 'cohort_customers' | 'customer_churn_rate'>;

// The API answers 0 for a ratio over nothing (docs/decisions.md, "Ratios over nothing are 0"):
// without customers, or without a cohort, the card shows "–" rather than a real-looking 0.
const arpaOf = (row: MrrRow | undefined) => (row && row.total_customers > 0 ? row.arpa : null);
const churnOf = (row: Churn | undefined) =>
  row && row.cohort_customers > 0 ? row.customer_churn_rate : null;

/**
 * The five headline figures at the end of the range, each against the period before it or,
 * given `previous` (the equally long range just before, as the chart draws it), against the
 * end of that range.
 */
export function summaryCards(
  mrr: MrrRow[],
  retention: Churn[],
  currency: string,
  previous?: { mrr: MrrRow[]; retention: Churn[] },
): Card[] {
  const last = mrr.at(-1);
  const before = previous ? previous.mrr.at(-1) : mrr.at(-2);
  const churn = churnOf(retention.at(-1));
  const churnBefore = churnOf(previous ? previous.retention.at(-1) : retention.at(-2));
  const churnChange = churn !== null && churnBefore !== null ? churn - churnBefore : null;
  return [
    {
      metric: 'mrr',
      label: 'MRR',
      value: last?.total_mrr ?? null,
      text: money(last?.total_mrr, currency),
      ...changeOf(last?.total_mrr ?? null, before?.total_mrr),
    },
    {
      metric: 'arr',
      label: 'ARR',
      value: last?.total_arr ?? null,
      text: money(last?.total_arr, currency),
      ...changeOf(last?.total_arr ?? null, before?.total_arr),
    },
    {
      metric: 'subscribers',
      label: 'Subscribers',
      value: last?.total_customers ?? null,
      text: count(last?.total_customers),
      ...changeOf(last?.total_customers ?? null, before?.total_customers),
    },
    {
      metric: 'arpa',
      label: 'ARPA',
      value: arpaOf(last),
      text: money(arpaOf(last), currency),
      ...changeOf(arpaOf(last), arpaOf(before)),
    },
    {
      metric: 'churn-rate',
      label: 'Customer churn rate',
      value: churn,
      text: percent(churn),
      change: churnChange === null ? null : signed(churnChange, ' pts'),
      good: churnChange === null || churnChange === 0 ? null : churnChange < 0,
    },
  ];
}

export function SummaryCards({ cards, interval }: { cards: Card[]; interval: string }) {
  return (
    <section class="cards" aria-label="Summary">
      {cards.map((card) => (
        <div class="card" key={card.metric} data-metric={card.metric} data-value={card.value ?? ''}>
          <span class="card-label">{card.label}</span>
          <strong class="card-value">{card.text}</strong>
          <span class={`card-change ${card.good === null ? '' : card.good ? 'up' : 'down'}`}>
            {card.change === null ? 'no earlier figure' : `${card.change} vs previous ${interval}`}
          </span>
        </div>
      ))}
    </section>
  );
}
