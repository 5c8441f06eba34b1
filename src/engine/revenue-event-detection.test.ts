import { describe, expect, it } from 'vitest';
import { customerView } from '../../test/helpers/customer-view.js';
import { buildAccountSnapshot } from './account-snapshot.js';
import type { CashflowInvoice, CashflowTransaction } from './cashflow/cashflow-data.js';
import { buildCashflowTable } from './cashflow/cashflow-table.js';
import { dayNumber as d } from './days.js';
import { FxTable } from './fx-table.js';
import { type DetectedEvent, detectRevenueEvents, isNews } from './revenue-event-detection.js';
import { fallbackSubtype } from './movement-subtypes.js';
import type { Movement, MovementKind } from './types.js';

const TODAY = d('2026-11-20');
// 1 EUR = 1.25 USD from Nov 1 on (and before: a day before the first rate uses the first).
const fx = FxTable.build([{ day: '2026-11-01', currency: 'usd', perEur: 1.25 }]);
const move = (day: string, kind: MovementKind, amount: number): Movement => ({
  day: d(day),
  kind,
  amount,
  subtype: fallbackSubtype(kind),
  scheduled: false,
  knownDay: null,
});

const customers = [
  customerView('c0', {
    name: 'Ann',
    movements: [
      move('2026-11-19', 'new', 5000),
      move('2026-11-20', 'expansion', 2000),
      // A prepaid period ending: not planned by a record, so not news before it happens.
      move('2026-12-15', 'churn', -7000),
    ],
  }),
  customerView('c1', {
    name: 'Bo',
    currency: 'eur',
    movements: [move('2026-10-01', 'new', 4000), move('2026-11-18', 'churn', -4000)],
  }),
  customerView('c2', {
    name: 'Cy',
    dataSourceId: 'ds2',
    movements: [
      move('2026-09-01', 'new', 10000),
      move('2026-11-20', 'contraction', -3000),
      { ...move('2026-12-31', 'churn', -7000), scheduled: true, knownDay: d('2026-11-19') },
    ],
  }),
  customerView('c3', {
    email: 'd@example.com',
    movements: [
      move('2026-10-20', 'new', 1000),
      move('2026-11-01', 'churn', -1000),
      move('2026-11-20', 'reactivation', 1500),
    ],
  }),
];
const snapshot = buildAccountSnapshot(1, customers);

const payment = (id: string, day: string, successful: boolean, amount: number): CashflowTransaction => ({
  id,
  day: d(day),
  type: 'payment',
  successful,
  amount,
  paymentMethod: 'card',
});
const invoice = (
  id: string,
  customer: number,
  currency: string,
  transactions: CashflowTransaction[],
): CashflowInvoice => ({
  id,
  number: null,
  description: null,
  customer,
  currency,
  day: transactions[0]!.day,
  dueDay: null,
  paymentDay: null,
  status: 'paid',
  total: transactions[0]!.amount,
  transactions,
});
const cashflow = buildCashflowTable([
  // Failed on the 19th, failed again on the 19th's retry, paid on the 20th.
  invoice('inv1', 0, 'usd', [
    payment('t1', '2026-11-19', false, 5000),
    payment('t2', '2026-11-19', false, 5000),
    payment('t3', '2026-11-20', true, 5000),
  ]),
  // Failed before the detection window: not looked at.
  invoice('inv2', 1, 'eur', [payment('t4', '2026-10-01', false, 4000)]),
  // Failed in the window, in euros, not paid yet.
  invoice('inv3', 1, 'eur', [payment('t5', '2026-11-17', false, 800)]),
]);

const query = { accountId: 'acc', baseCurrency: 'usd', today: TODAY, from: d('2026-10-16') };
const detected = detectRevenueEvents(snapshot, cashflow, query, fx);
const summary = (found: DetectedEvent) => [
  found.event.key,
  found.event.occurredAt,
  found.event.amount,
  found.event.mrr,
];

describe('detectRevenueEvents', () => {
  it('turns movements from `from` on into events, in day order, amounts in the base currency', () => {
    expect(detected.filter((found) => !found.event.kind.includes('payment')).map(summary)).toEqual([
      // c3's new customer of Oct 20 is in the window too; c1's of Oct 1 is not.
      ['new_customer:ds1:c3:2026-10-20', '2026-10-20', 1000, 1000],
      ['churn:ds1:c3:2026-11-01', '2026-11-01', -1000, 0],
      // -4000 EUR * 1.25 = -5000 USD.
      ['churn:ds1:c1:2026-11-18', '2026-11-18', -5000, 0],
      ['new_customer:ds1:c0:2026-11-19', '2026-11-19', 5000, 5000],
      // 5000 + 2000 = 7000.
      ['expansion:ds1:c0:2026-11-20', '2026-11-20', 2000, 7000],
      // 10000 - 3000 = 7000.
      ['contraction:ds2:c2:2026-11-20', '2026-11-20', -3000, 7000],
      ['reactivation:ds1:c3:2026-11-20', '2026-11-20', 1500, 1500],
      // Told on the day the cancellation was asked for; it leaves no MRR.
      ['scheduled_churn:ds2:c2:2026-12-31', '2026-11-19', -7000, 0],
    ]);
  });

  it('names the customer, account and base currency on each event, and the source beside it', () => {
    const churn = detected.find((found) => found.event.key === 'churn:ds1:c1:2026-11-18')!;
    expect(churn).toEqual({
      dataSourceId: 'ds1',
      event: {
        key: 'churn:ds1:c1:2026-11-18',
        kind: 'churn',
        accountId: 'acc',
        customer: { id: 'c1', name: 'Bo', email: null },
        occurredAt: '2026-11-18',
        amount: -5000,
        mrr: 0,
        currency: 'usd',
      },
    });
    expect(detected.find((found) => found.event.kind === 'scheduled_churn')!.dataSourceId).toBe('ds2');
  });

  it("gives each invoice's first failed attempt and the first payment after it, once each", () => {
    expect(detected.filter((found) => found.event.kind.includes('payment')).map(summary)).toEqual([
      // The retry that failed on the 19th too is the same failure. MRR that day: 5000.
      ['failed_payment:ds1:c0:inv1', '2026-11-19', 5000, 5000],
      // Paid on the 20th, when c0's MRR was 7000.
      ['payment_recovered:ds1:c0:inv1', '2026-11-20', 5000, 7000],
      // 800 EUR * 1.25 = 1000 USD; c1's MRR on the 17th: 4000 EUR * 1.25 = 5000 USD.
      ['failed_payment:ds1:c1:inv3', '2026-11-17', 1000, 5000],
    ]);
  });

  it('gives the same keys when detected again, a day later', () => {
    const again = detectRevenueEvents(snapshot, cashflow, { ...query, today: TODAY + 1 }, fx);
    expect(again.map((found) => found.event.key)).toEqual(detected.map((found) => found.event.key));
  });
});

describe('isNews', () => {
  const event = (day: string, dataSourceId = 'ds1'): DetectedEvent => ({
    dataSourceId,
    event: { ...detected[0]!.event, occurredAt: day },
  });
  const rule = { today: TODAY, maxAgeDays: 2, watchedSince: new Map([['ds1', '2026-11-10']]) };

  it('tells events of today and yesterday from a source watched before them', () => {
    expect(isNews(event('2026-11-20'), rule)).toBe(true);
    expect(isNews(event('2026-11-19'), rule)).toBe(true);
  });

  it('keeps quiet about events two days old or more: 20 - 2 = the 18th is history', () => {
    expect(isNews(event('2026-11-18'), rule)).toBe(false);
  });

  it("keeps quiet about events up to the day the source was first watched: its import's history", () => {
    const watchedYesterday = { ...rule, watchedSince: new Map([['ds1', '2026-11-19']]) };
    expect(isNews(event('2026-11-19'), watchedYesterday)).toBe(false);
    expect(isNews(event('2026-11-20'), watchedYesterday)).toBe(true);
    // A source not watched yet is being seen for the first time now.
    expect(isNews(event('2026-11-20', 'ds9'), rule)).toBe(false);
  });
});
