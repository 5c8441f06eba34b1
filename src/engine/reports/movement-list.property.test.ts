import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { dayNumber } from '../days.js';
import { FxTable } from '../fx-table.js';
import { fallbackSubtype } from '../movement-subtypes.js';
import type { Movement, MovementKind } from '../types.js';
import { type ListedMovement, listMovements, movementPage } from './movement-list.js';

const START = dayNumber('2026-01-01');
const TODAY = START + 20;
const fx = FxTable.build([
  { day: '2026-01-01', currency: 'usd', perEur: 1.25 },
  { day: '2026-01-10', currency: 'usd', perEur: 1.2 },
]);

// Few days and amounts, several movements of one customer on one day: ties everywhere.
const movementArb = fc.record({
  day: fc.integer({ min: 0, max: 30 }),
  kind: fc.constantFrom<MovementKind>('new', 'expansion', 'contraction', 'churn'),
  amount: fc.constantFrom(-500, -100, 100, 250, 500),
  scheduled: fc.boolean(),
});
const customersArb = fc.array(
  fc.record({ currency: fc.constantFrom('usd', 'eur'), movements: fc.array(movementArb, { maxLength: 5 }) }),
  { maxLength: 12 },
);
const queryArb = (count: number) =>
  fc.record({
    from: fc.integer({ min: START, max: START + 30 }),
    length: fc.integer({ min: 0, max: 30 }),
    baseCurrency: fc.constantFrom('usd', 'eur'),
    fixedRate: fc.boolean(),
    customers: fc.option(fc.uint8Array({ min: 0, max: 1, minLength: count, maxLength: count })),
    kinds: fc.option(
      fc.constantFrom(new Set<MovementKind>(['churn']), new Set<MovementKind>(['new', 'expansion'])),
    ),
    committed: fc.boolean(),
    sort: fc.constantFrom('date' as const, 'mrr_change' as const),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    limit: fc.integer({ min: 1, max: 8 }),
    offset: fc.integer({ min: 0, max: 8 }),
  });

describe('movementPage', () => {
  it('is the page of the whole list sorted by key, then customer, then list order', () => {
    fc.assert(
      fc.property(
        customersArb.chain((customers) => fc.tuple(fc.constant(customers), queryArb(customers.length))),
        ([customers, raw]) => {
          const snapshot = buildAccountSnapshot(
            1,
            customers.map((customer, index) =>
              customerView(`c${index}`, {
                currency: customer.currency,
                movements: customer.movements
                  .map((movement): Movement => ({
                    day: START + movement.day,
                    kind: movement.kind,
                    subtype: fallbackSubtype(movement.kind),
                    amount: movement.amount,
                    scheduled: movement.scheduled,
                    knownDay: movement.scheduled ? TODAY - 1 : null,
                  }))
                  .sort((a, b) => a.day - b.day),
              }),
            ),
          );
          const query = {
            from: raw.from,
            to: raw.from + raw.length,
            baseCurrency: raw.baseCurrency,
            fixedRateDay: raw.fixedRate ? raw.from + raw.length : null,
            customers: raw.customers,
            kinds: raw.kinds,
            today: TODAY,
            committed: raw.committed,
          };
          const direction = raw.order === 'asc' ? 1 : -1;
          const key = (movement: ListedMovement) =>
            raw.sort === 'date' ? movement.day : movement.amountBase;
          const sorted = listMovements(snapshot, query, fx).sort(
            (a, b) => (key(a) - key(b)) * direction || a.customerIndex - b.customerIndex,
          );
          expect(movementPage(snapshot, query, fx, raw)).toEqual(
            sorted.slice(raw.offset, raw.offset + raw.limit),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
