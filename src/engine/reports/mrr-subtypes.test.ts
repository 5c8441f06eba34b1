import { describe, expect, it } from 'vitest';
import { move } from '../../../test/helpers/movements.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { buildSnapshot } from '../snapshot.js';
import { MOVEMENT_SUBTYPES } from '../vocabulary.js';
import { mrrReport, type MrrQuery } from './mrr.js';
import { mrrRowsWithSubtypes, mrrSubtypesReport } from './mrr-subtypes.js';

// EUR -> USD: 1.10 in January, 1.15 in February, 1.20 from March.
const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-02-01', currency: 'usd', perEur: 1.15 },
  { day: '2024-03-01', currency: 'usd', perEur: 1.2 },
]);
// A (USD): new 10000 Jan 10, a plan change +5000 Feb 15 and 1000 more seats Feb 20.
// B (EUR): new 10000 Jan 20, a discount -2000 Feb 10, churned unpaid Mar 5.
// C (USD): new 3000 Jan 5, cancelled Mar 10.
const snapshot = buildSnapshot([
  {
    id: 'A',
    currency: 'usd',
    movements: [
      move('2024-01-10', 'new', 10000),
      move('2024-02-15', 'expansion', 5000, 'plan_change'),
      move('2024-02-20', 'expansion', 1000, 'quantity_change'),
    ],
  },
  {
    id: 'B',
    currency: 'eur',
    movements: [
      move('2024-01-20', 'new', 10000),
      move('2024-02-10', 'contraction', -2000, 'discount_change'),
      move('2024-03-05', 'churn', -8000, 'delinquent'),
    ],
  },
  {
    id: 'C',
    currency: 'usd',
    movements: [move('2024-01-05', 'new', 3000), move('2024-03-10', 'churn', -3000, 'voluntary')],
  },
]);
const query: MrrQuery = {
  today: d('2024-12-31'),
  committed: false,
  from: d('2024-02-01'),
  to: d('2024-03-31'),
  interval: 'month',
  baseCurrency: 'usd',
  fixFx: false,
  customers: null,
};

describe('mrrSubtypesReport', () => {
  it('splits expansion by subtype, each with its customers', () => {
    // Feb: plan_change 5000 and quantity_change 1000, both A's: expansion 6000 by 1 customer.
    expect(mrrSubtypesReport(snapshot, query, 'expansion', fx)[0]).toEqual({
      date: '2024-02-01',
      end_date: '2024-02-29',
      plan_change: 5000,
      plan_change_customers: 1,
      add_on: 0,
      add_on_customers: 0,
      quantity_change: 1000,
      quantity_change_customers: 1,
      discount_change: 0,
      discount_change_customers: 0,
      price_change: 0,
      price_change_customers: 0,
      fx: 0,
      fx_customers: 0,
      other: 0,
      other_customers: 0,
      expansion: 6000,
      expansion_customers: 1,
    });
  });

  it('splits churn into delinquent and voluntary, converted at each day as /reports/mrr does', () => {
    // Mar: B's -8000 EUR x 1.20 = -9600 delinquent; C's -3000 voluntary; churn -12600.
    const rows = mrrSubtypesReport(snapshot, query, 'churn', fx);
    expect(rows[1]).toEqual({
      date: '2024-03-01',
      end_date: '2024-03-31',
      voluntary: -3000,
      voluntary_customers: 1,
      delinquent: -9600,
      delinquent_customers: 1,
      churn: -12600,
      churn_customers: 2,
    });
    expect(rows.map((row) => row.churn)).toEqual(mrrReport(snapshot, query, fx).map((row) => row.churn));
  });

  it('with fix_fx converts at the range end: -2000 EUR x 1.20 = -2400 of discount_change', () => {
    expect(mrrSubtypesReport(snapshot, { ...query, fixFx: true }, 'contraction', fx)[0]).toMatchObject({
      discount_change: -2400,
      contraction: -2400,
      contraction_customers: 1,
    });
  });

  it("counts only the filter's customers", () => {
    const onlyC = Uint8Array.from([0, 0, 1]);
    expect(mrrSubtypesReport(snapshot, { ...query, customers: onlyC }, 'churn', fx)[1]).toMatchObject({
      voluntary: -3000,
      delinquent: 0,
      churn: -3000,
    });
  });
});

describe('mrrRowsWithSubtypes', () => {
  it("puts each split kind's subtypes after its amount and after its customer count", () => {
    const [february] = mrrRowsWithSubtypes(snapshot, query, fx);
    const fields = Object.keys(february!);
    expect(fields.slice(fields.indexOf('expansion'), fields.indexOf('expansion') + 3)).toEqual([
      'expansion',
      'expansion_plan_change',
      'expansion_add_on',
    ]);
    expect(fields.slice(fields.indexOf('churn_customers'), fields.indexOf('churn_customers') + 3)).toEqual([
      'churn_customers',
      'churn_voluntary_customers',
      'churn_delinquent_customers',
    ]);
    // Feb: contraction -2000 EUR x 1.15 = -2300, all of it discount_change.
    expect(february).toMatchObject({
      expansion: 6000,
      expansion_plan_change: 5000,
      expansion_quantity_change: 1000,
      contraction: -2300,
      contraction_discount_change: -2300,
      contraction_discount_change_customers: 1,
      total_mrr: 10000 + 6000 + 3000 + 8000 * 1.15,
    });
  });
});

describe('mrrReport of one subtype', () => {
  it('counts only that subtype, totals included, and no units', () => {
    // Only delinquent churn counts: B's -8000 EUR. Before March nothing of that subtype, so 0;
    // March: -9600 at Mar 5's rate, the total -8000 EUR x 1.20 on Mar 31 = -9600.
    const rows = mrrReport(snapshot, { ...query, subtype: MOVEMENT_SUBTYPES.indexOf('delinquent') }, fx);
    expect(rows.map((row) => [row.churn, row.new, row.total_mrr, row.total_customers, row.quantity])).toEqual(
      [
        [0, 0, 0, 0, 0],
        [-9600, 0, -9600, -1, 0],
      ],
    );
  });
});
