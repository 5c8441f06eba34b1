import { customerView } from './customer-view.js';
import type { CustomerView } from '../../src/engine/account-snapshot.js';
import type { CashflowInvoice, CashflowTransaction } from '../../src/engine/cashflow/cashflow-data.js';
import { buildCashflowTable } from '../../src/engine/cashflow/cashflow-table.js';
import { dayNumber as d } from '../../src/engine/days.js';
import { FxTable } from '../../src/engine/fx-table.js';
import type { Movement } from '../../src/engine/types.js';

/**
 * The cashflow fixture of the engine tests; test/api/cashflow.test.ts stores the same records.
 * Today is 2026-11-23. 1 EUR = 1.20 USD from Sep 1, 1.25 from Nov 1.
 *
 * - c_pay: p1 paid 10000 on Oct 1, p2 paid 10000 on Nov 1, 2500 of p2 refunded on Nov 10.
 * - c_eur: e1 paid 8000 EUR on Nov 2 (10000 USD at 1.25).
 * - c_rec: r1 6000 failed on Nov 5 and Nov 8, paid on Nov 12: recovered.
 * - c_churn: k0 paid 4000 on Sep 15; k1 4000 failed on Oct 15 and Oct 20, never paid; the
 *   customer churned on Nov 18.
 * - c_open: o1 3000 due Nov 3 (20 days overdue); o2 2000 due Aug 25 (90 days), 500 paid on
 *   Sep 1; o3 9999 due Dec 1 (not yet due).
 */
export const TODAY = d('2026-11-23');

export const fx = FxTable.build([
  { day: '2026-09-01', currency: 'usd', perEur: 1.2 },
  { day: '2026-11-01', currency: 'usd', perEur: 1.25 },
]);

const customer = (id: string, movements: Movement[] = []): CustomerView =>
  customerView(id, { dataSourceId: 'ds', name: id.toUpperCase(), email: `${id}@example.com`, movements });

export const customers: CustomerView[] = [
  customer('c_pay'),
  customer('c_eur'),
  customer('c_rec'),
  customer('c_churn', [
    { day: d('2026-09-15'), kind: 'new', subtype: 'new', amount: 4000, scheduled: false, knownDay: null },
    {
      day: d('2026-11-18'),
      kind: 'churn',
      subtype: 'voluntary',
      amount: -4000,
      scheduled: false,
      knownDay: null,
    },
  ]),
  customer('c_open'),
];

let next = 0;
const tx = (
  day: string,
  amount: number,
  type: 'payment' | 'refund' = 'payment',
  successful = true,
): CashflowTransaction => ({
  id: `t${++next}`,
  day: d(day),
  type,
  successful,
  amount,
  paymentMethod: 'card',
});
const failed = (day: string, amount: number) => tx(day, amount, 'payment', false);

const invoice = (
  id: string,
  customerIndex: number,
  day: string,
  total: number,
  transactions: CashflowTransaction[],
  extra: Partial<CashflowInvoice> = {},
): CashflowInvoice => ({
  id,
  number: id.toUpperCase(),
  description: null,
  customer: customerIndex,
  currency: 'usd',
  day: d(day),
  dueDay: null,
  paymentDay: null,
  status: 'paid',
  total,
  transactions,
  ...extra,
});

export const invoices: CashflowInvoice[] = [
  invoice('p1', 0, '2026-10-01', 10000, [tx('2026-10-01', 10000)]),
  invoice('p2', 0, '2026-11-01', 10000, [tx('2026-11-01', 10000), tx('2026-11-10', 2500, 'refund')]),
  invoice('e1', 1, '2026-11-02', 8000, [tx('2026-11-02', 8000)], { currency: 'eur' }),
  invoice('r1', 2, '2026-11-05', 6000, [
    failed('2026-11-05', 6000),
    failed('2026-11-08', 6000),
    tx('2026-11-12', 6000),
  ]),
  invoice('k0', 3, '2026-09-15', 4000, [tx('2026-09-15', 4000)]),
  invoice('k1', 3, '2026-10-15', 4000, [failed('2026-10-15', 4000), failed('2026-10-20', 4000)], {
    status: 'uncollectible',
  }),
  invoice('o1', 4, '2026-10-20', 3000, [], { status: 'open', dueDay: d('2026-11-03') }),
  invoice('o2', 4, '2026-08-11', 2000, [tx('2026-09-01', 500)], { status: 'open', dueDay: d('2026-08-25') }),
  invoice('o3', 4, '2026-11-17', 9999, [], { status: 'open', dueDay: d('2026-12-01') }),
];

/** The fixture as the reports read it, invoices in the order above. */
export const table = buildCashflowTable(invoices);

/** An invoice's index in `table`. */
export const invoiceIndex = (id: string): number => invoices.findIndex((invoice) => invoice.id === id);
