import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { dayNumber } from '../days.js';
import { FxTable } from '../fx-table.js';
import { fallbackSubtype } from '../movement-subtypes.js';
import type { Movement, MovementKind } from '../types.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import { type ListedMovement, listedPositions, listMovements, movementPage } from './movement-list.js';

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

type Customers = typeof customersArb extends fc.Arbitrary<infer T> ? T : never;

function snapshotOf(customers: Customers) {
  return buildAccountSnapshot(
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
}

/** A snapshot of the generated customers and a query over it. */
const casesArb = customersArb.chain((customers) =>
  queryArb(customers.length).map((raw) => ({
    snapshot: snapshotOf(customers),
    raw,
    query: {
      from: raw.from,
      to: raw.from + raw.length,
      baseCurrency: raw.baseCurrency,
      fixedRateDay: raw.fixedRate ? raw.from + raw.length : null,
      customers: raw.customers,
      kinds: raw.kinds,
      today: TODAY,
      committed: raw.committed,
    },
  })),
);

describe('movementPage', () => {
  it('is the page of the whole list sorted by key, then customer, then list order', () => {
    fc.assert(
      fc.property(casesArb, ({ snapshot, raw, query }) => {
        const direction = raw.order === 'asc' ? 1 : -1;
        const key = (movement: ListedMovement) => (raw.sort === 'date' ? movement.day : movement.amountBase);
        const sorted = listMovements(snapshot, query, fx).sort(
          (a, b) => (key(a) - key(b)) * direction || a.customerIndex - b.customerIndex,
        );
        expect(movementPage(snapshot, query, fx, raw)).toEqual(
          sorted.slice(raw.offset, raw.offset + raw.limit),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('listedPositions', () => {
  it('reads the same movements as the whole list, built or by column', () => {
    fc.assert(
      fc.property(casesArb, ({ snapshot, query }) => {
        const list = listMovements(snapshot, query, fx);
        const listed = listedPositions(snapshot, query, fx);
        const { movementDay, movementCustomer, movementAmount, movementKind } = snapshot.movements;
        expect(listed.count).toBe(list.length);
        list.forEach((movement, n) => {
          expect(listed.at(n)).toEqual(movement);
          expect(listed.amountBase(n)).toBe(movement.amountBase);
          expect(movementDay[listed.position(n)]).toBe(movement.day);
          expect(movementCustomer[listed.position(n)]).toBe(movement.customerIndex);
          // One customer moves several times a day here: the amount and kind tell those apart.
          expect(movementAmount[listed.position(n)]).toBe(movement.amount);
          expect(MOVEMENT_KINDS[movementKind[listed.position(n)]!]).toBe(movement.kind);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('listMovements', () => {
  it("keeps each movement of the query's days with its customer's MRR summed over every movement before it", () => {
    fc.assert(
      fc.property(casesArb, ({ snapshot, query }) => {
        // Every movement walked from the first, as the list did before it kept each movement's
        // MRR before it with the snapshot.
        const { movements } = snapshot;
        const mrr = new Map<number, number>();
        const expected: [number, number, number][] = [];
        for (let i = 0; i < movements.movementCount; i++) {
          const day = movements.movementDay[i]!;
          const customer = movements.movementCustomer[i]!;
          const before = mrr.get(customer) ?? 0;
          mrr.set(customer, before + movements.movementAmount[i]!);
          const scheduled = movements.movementScheduled[i] === 1;
          const kind = MOVEMENT_KINDS[movements.movementKind[i]!]!;
          if (day < query.from || day > query.to) continue;
          if (day > query.today && !(query.committed && scheduled)) continue;
          if (query.customers !== null && query.customers[customer] !== 1) continue;
          if (query.kinds !== null && !query.kinds.has(kind)) continue;
          expected.push([day, customer, before]);
        }
        const list = listMovements(snapshot, query, fx);
        expect(list.map((movement) => [movement.day, movement.customerIndex, movement.before])).toEqual(
          expected,
        );
        // Asked again of the same snapshot, from the MRR kept with it.
        expect(listMovements(snapshot, query, fx)).toEqual(list);
      }),
      { numRuns: 500 },
    );
  });
});
