import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { churnReasonsReport } from './churn-reasons.js';

// 1 EUR = 1.25 USD.
const fx = FxTable.build([{ day: '2026-01-01', currency: 'usd', perEur: 1.25 }]);
const churned = (id: string, reason: string | null, amount: number, day: string, currency = 'usd') =>
  customerView(id, {
    currency,
    cancelReason: reason,
    movements: [move('2026-01-01', 'new', amount), move(day, 'churn', -amount)],
  });
const snapshot = buildAccountSnapshot(1, [
  churned('a', 'too_expensive', 5000, '2026-03-10'),
  churned('b', 'too_expensive', 2000, '2026-04-02'),
  churned('c', 'missing_feature', 9000, '2026-05-20'),
  churned('d', null, 1000, '2026-05-21'),
  churned('e', 'switched', 800, '2026-06-01', 'eur'),
  // Outside the range: churned in February.
  churned('f', 'too_expensive', 700, '2026-02-15'),
  customerView('g', { movements: [move('2026-01-01', 'new', 4000)] }),
]);
const query = {
  from: d('2026-03-01'),
  to: d('2026-06-30'),
  today: d('2026-11-23'),
  baseCurrency: 'usd',
  customers: null,
};

describe('churnReasonsReport', () => {
  it('groups the cancellations of the range by reason, most frequent first, no reason last', () => {
    expect(churnReasonsReport(snapshot, query, fx)).toEqual({
      // 5 cancellations from March to June; 4 give a reason.
      total_cancellations: 5,
      comment_count: 4,
      reasons: [
        // a 5000 + b 2000; 2 of 5 = 40 %.
        { reason: 'too_expensive', cancellations: 2, churned_mrr: 7000, share_pct: 40 },
        { reason: 'missing_feature', cancellations: 1, churned_mrr: 9000, share_pct: 20 },
        // e: 800 EUR x 1.25 = 1000 USD; ties with missing_feature on count, less MRR.
        { reason: 'switched', cancellations: 1, churned_mrr: 1000, share_pct: 20 },
        { reason: null, cancellations: 1, churned_mrr: 1000, share_pct: 20 },
      ],
    });
  });

  it('keeps only the filtered customers and answers empty, not NaN, without cancellations', () => {
    const onlyA = new Uint8Array([1, 0, 0, 0, 0, 0, 0]);
    expect(churnReasonsReport(snapshot, { ...query, customers: onlyA }, fx).reasons).toEqual([
      { reason: 'too_expensive', cancellations: 1, churned_mrr: 5000, share_pct: 100 },
    ]);
    const quiet = { ...query, from: d('2026-07-01'), to: d('2026-07-31') };
    expect(churnReasonsReport(snapshot, quiet, fx)).toEqual({
      reasons: [],
      total_cancellations: 0,
      comment_count: 0,
    });
  });
});
