import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { movementsOf } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot, type CustomerView, mrrOn } from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { dayNumber, dayString } from '../days.js';
import { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { concentrationReport } from './concentration.js';
import { CUSTOMER_SORTS, type CustomerListItem, customerItem, customerState } from './customer-item.js';
import { type CustomersQuery, customersReport } from './customers.js';

// The plain way, as the reports were first written: an item for every customer the filters
// keep, all of them sorted, then the page. The cached orders must give the same answers.

const START = dayNumber('2026-01-01');
const TODAY = START + 60;
const fx = FxTable.build([{ day: '2026-01-01', currency: 'usd', perEur: 1.25 }]);
const instant = (offset: number) => `${dayString(START + offset)}T09:30:00.000Z`;
const matchesSearch = (customer: CustomerView, search: string) =>
  [customer.name, customer.email, customer.id].some((field) => field?.toLowerCase().includes(search));

function plainList(customers: readonly CustomerView[], query: CustomersQuery): CustomerListItem[] {
  const items = customers.flatMap((customer, index) => {
    if (query.customers !== null && query.customers[index] !== 1) return [];
    if (query.search !== null && !matchesSearch(customer, query.search)) return [];
    const state = customerState(customer, query.today);
    if (query.status !== 'all' && state.status !== query.status) return [];
    if (query.selected !== null) {
      const { type, from, to } = query.selected;
      const day =
        type === 'lead' ? state.createdDate : type === 'trials' ? state.trialStarted : state.paidStarted;
      if (day === null || dayNumber(day) < from || dayNumber(day) > to) return [];
    }
    const mrr = roundCents(fx.convert(state.mrr, customer.currency, query.baseCurrency, query.today));
    return [customerItem(customer, state, mrr)];
  });
  const direction = query.order === 'asc' ? 1 : -1;
  items.sort((a, b) => {
    const x = a[query.sort];
    const y = b[query.sort];
    if (x === null || y === null) return x === y ? compareText(a.id, b.id) : x === null ? 1 : -1;
    if (x !== y) return (x < y ? -1 : 1) * direction;
    return compareText(a.id, b.id);
  });
  return items.slice(query.offset, query.offset + query.limit);
}

function plainConcentrationList(customers: readonly CustomerView[], query: CustomersQuery) {
  return customers
    .flatMap((customer, index) => {
      if (query.customers !== null && query.customers[index] !== 1) return [];
      if (query.search !== null && !matchesSearch(customer, query.search)) return [];
      const mrr = roundCents(
        fx.convert(mrrOn(customer, query.today), customer.currency, query.baseCurrency, query.today),
      );
      return mrr > 0 ? [{ id: customer.id, mrr }] : [];
    })
    .sort((a, b) => b.mrr - a.mrr || compareText(a.id, b.id));
}

const offsetArb = fc.option(fc.integer({ min: 0, max: 70 }));
// Few ids, names, amounts and days, so that duplicates and ties are common.
const customerArb = fc
  .record({
    id: fc.constantFrom('a', 'b', 'B', 'c', 'ab'),
    name: fc.option(fc.constantFrom('Acme', 'acme two', 'Zed', 'ΟΔΟΣ', 'a\u0000b')),
    country: fc.option(fc.constantFrom('US', 'DE')),
    currency: fc.constantFrom('usd', 'eur'),
    created: fc.integer({ min: 0, max: 70 }),
    trial: offsetArb,
    paid: offsetArb,
    cancel: offsetArb,
    steps: fc.array(
      fc.record({ day: fc.integer({ min: 0, max: 80 }), mrr: fc.constantFrom(0, 0, 800, 1000, 1000) }),
      { maxLength: 4 },
    ),
  })
  .map((row) => {
    const movements = movementsOf(row.steps.map((step) => ({ day: START + step.day, mrr: step.mrr })));
    return customerView(row.id, {
      name: row.name,
      country: row.country,
      currency: row.currency,
      createdDate: instant(row.created),
      trialStarted: row.trial === null ? null : instant(row.trial),
      paidStarted: row.paid === null ? null : instant(row.paid),
      cancelDate: row.cancel === null ? null : instant(row.cancel),
      firstPaidDay: movements.find((movement) => movement.amount > 0)?.day ?? null,
      movements,
    });
  });

const queryArb = (count: number) =>
  fc.record({
    today: fc.constant(TODAY),
    baseCurrency: fc.constantFrom('usd', 'eur'),
    customers: fc.option(fc.uint8Array({ min: 0, max: 1, minLength: count, maxLength: count })),
    status: fc.constantFrom('active' as const, 'cancelled' as const, 'all' as const),
    // A final sigma, and the NUL the matcher joins fields with.
    search: fc.option(fc.constantFrom('acme', 'b', 'zed', 'ς', 'σ', 'a\u0000b', '\u0000', 'bc')),
    selected: fc.option(
      fc.record({
        type: fc.constantFrom('lead' as const, 'trials' as const, 'converted' as const),
        from: fc.integer({ min: START, max: START + 70 }),
        to: fc.integer({ min: START, max: START + 70 }),
      }),
    ),
    sort: fc.constantFrom(...CUSTOMER_SORTS),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    limit: fc.integer({ min: 1, max: 12 }),
    offset: fc.integer({ min: 0, max: 12 }),
  });

const accountArb = fc
  .array(customerArb, { maxLength: 30 })
  .chain((customers) =>
    fc.tuple(fc.constant(customers), fc.array(queryArb(customers.length), { minLength: 1, maxLength: 4 })),
  );

describe('customer lists over cached orders', () => {
  it('give the page of the full sort, ties by id then by listing order', () => {
    fc.assert(
      fc.property(accountArb, ([customers, queries]) => {
        // One snapshot for several queries, so later ones read what the first cached.
        const snapshot = buildAccountSnapshot(1, customers);
        for (const query of queries) {
          expect(customersReport(snapshot, query, fx)).toEqual(plainList(customers, query));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rank paying customers for the concentration report as a full sort does', () => {
    fc.assert(
      fc.property(accountArb, ([customers, queries]) => {
        const snapshot = buildAccountSnapshot(1, customers);
        for (const query of queries) {
          const report = concentrationReport(snapshot, query, fx);
          expect(report.list.map((row) => ({ id: row.id, mrr: row.mrr }))).toEqual(
            plainConcentrationList(customers, query),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
