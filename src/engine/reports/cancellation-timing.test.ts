import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { cancellations, cancellationTimingReport } from './cancellation-timing.js';

// 1 EUR = 1.25 USD.
const fx = FxTable.build([{ day: '2026-01-01', currency: 'usd', perEur: 1.25 }]);
const snapshot = buildAccountSnapshot(1, [
  // Paid Jan 1 to Jan 21: 20 days.
  customerView('quick', {
    name: 'Quick',
    cancelReason: 'too_expensive',
    movements: [move('2026-01-01', 'new', 2000), move('2026-01-21', 'churn', -2000)],
  }),
  // Paid Jan 1 2025, expanded, churned Mar 1 2026: 424 days.
  customerView('loyal', {
    movements: [
      move('2025-01-01', 'new', 5000),
      move('2025-06-01', 'expansion', 1000),
      move('2026-03-01', 'churn', -6000),
    ],
  }),
  // Churned once in 2025, back on Feb 1 2026, churned again Apr 2: 60 days of the second spell.
  customerView('again', {
    currency: 'eur',
    movements: [
      move('2025-01-01', 'new', 800),
      move('2025-03-01', 'churn', -800),
      move('2026-02-01', 'reactivation', 800),
      move('2026-04-02', 'churn', -800),
    ],
  }),
  customerView('stays', { movements: [move('2026-01-01', 'new', 9000)] }),
]);
const query = {
  from: d('2026-01-01'),
  to: d('2026-06-30'),
  today: d('2026-11-23'),
  baseCurrency: 'usd',
  customers: null,
};

describe('cancellation timing', () => {
  it('lists the churns of the range newest first with the days their paid spell lasted', () => {
    expect(cancellations(snapshot, query, fx)).toEqual([
      {
        date: '2026-04-02',
        customer_id: 'again',
        customer_name: null,
        customer_email: null,
        paid_start_date: '2026-02-01',
        days_active: 60,
        churned_mrr: 1000, // 800 EUR x 1.25
        cancel_reason: null,
      },
      {
        date: '2026-03-01',
        customer_id: 'loyal',
        customer_name: null,
        customer_email: null,
        paid_start_date: '2025-01-01',
        days_active: 424, // 365 + 31 + 28
        churned_mrr: 6000,
        cancel_reason: null,
      },
      {
        date: '2026-01-21',
        customer_id: 'quick',
        customer_name: 'Quick',
        customer_email: null,
        paid_start_date: '2026-01-01',
        days_active: 20,
        churned_mrr: 2000,
        cancel_reason: 'too_expensive',
      },
    ]);
  });

  it('counts them by bucket of days, with their churned MRR and share', () => {
    const report = cancellationTimingReport(snapshot, query, fx);
    expect(report.result.map((row) => [row.bucket, row.cancellations, row.churned_mrr, row.percent])).toEqual(
      [
        ['0-30', 1, 2000, 33.33],
        ['31-90', 1, 1000, 33.33],
        ['91-180', 0, 0, 0],
        ['181-365', 0, 0, 0],
        ['366-730', 1, 6000, 33.33],
        ['731+', 0, 0, 0],
      ],
    );
    // (20 + 60 + 424) / 3 = 168.
    expect(report.summary).toEqual({ cancellations: 3, average_days: 168 });
    const none = cancellationTimingReport(
      snapshot,
      { ...query, from: d('2026-07-01'), to: d('2026-07-31') },
      fx,
    );
    expect(none.summary).toEqual({ cancellations: 0, average_days: null });
    expect(none.result.every((row) => row.percent === null)).toBe(true);
  });
});
