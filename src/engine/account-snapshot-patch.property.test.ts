import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../test/helpers/customer-view.js';
import {
  type AccountSnapshot,
  buildAccountSnapshot,
  compareCustomers,
  customerKey,
  type CustomerView,
  movesSince,
  mrrsOn,
  patchAccountSnapshot,
  patchCustomers,
} from './account-snapshot.js';
import { breakdownGroups } from './breakdown.js';
import { FxTable } from './fx-table.js';
import { cohortFigures } from './reports/cohort-windows.js';
import { CUSTOMER_SORTS } from './reports/customer-item.js';
import { baseMrrsOn, customerOrder } from './reports/customer-order.js';
import { MOVEMENT_KINDS, MOVEMENT_SUBTYPES } from './vocabulary.js';

// Few ids, days and currencies: customers share days, currencies come and go with a patch.
const keyArb = fc.record({ dataSourceId: fc.constantFrom('ds1', 'ds2'), id: fc.constantFrom(...'abcdefgh') });
const dayArb = fc.integer({ min: 20_000, max: 20_012 });
const instantArb = fc.option(
  dayArb.map((day) => new Date(day * 86_400_000).toISOString()),
  { nil: null },
);
const viewArb = (key: { dataSourceId: string; id: string }) =>
  fc
    .record({
      currency: fc.constantFrom('usd', 'eur', 'gbp'),
      created: dayArb,
      trialStarted: instantArb,
      paidStarted: instantArb,
      firstPaidDay: fc.option(dayArb, { nil: null }),
      country: fc.option(fc.constantFrom('FR', 'US'), { nil: null }),
      hasDiscount: fc.boolean(),
      movements: fc.array(
        fc.record({
          day: dayArb,
          kind: fc.constantFrom(...MOVEMENT_KINDS),
          subtype: fc.constantFrom(...MOVEMENT_SUBTYPES),
          amount: fc.integer({ min: -900, max: 900 }),
          scheduled: fc.boolean(),
          knownDay: fc.option(dayArb, { nil: null }),
        }),
        { maxLength: 4 },
      ),
      quantities: fc.uniqueArray(fc.record({ day: dayArb, quantity: fc.integer({ min: 0, max: 9 }) }), {
        selector: (point) => point.day,
        maxLength: 3,
      }),
    })
    .map((fields): CustomerView =>
      customerView(key.id, {
        dataSourceId: key.dataSourceId,
        currency: fields.currency,
        createdDate: new Date(fields.created * 86_400_000).toISOString(),
        trialStarted: fields.trialStarted,
        paidStarted: fields.paidStarted,
        firstPaidDay: fields.firstPaidDay,
        country: fields.country,
        hasDiscount: fields.hasDiscount,
        movements: fields.movements.sort((a, b) => a.day - b.day),
        quantities: fields.quantities.sort((a, b) => a.day - b.day),
      }),
    );
const keysArb = fc.uniqueArray(keyArb, {
  selector: (key) => customerKey(key.dataSourceId, key.id),
  maxLength: 12,
});
/** Customers in snapshot order, one view per key. */
const customersArb = (keys: readonly { dataSourceId: string; id: string }[]) =>
  fc.tuple(...keys.map(viewArb)).map((views) => views.sort(compareCustomers));

describe('patchAccountSnapshot', () => {
  it('equals the snapshot built whole from the patched customers', () => {
    fc.assert(
      fc.property(
        // The held customers, then the changed keys (held or not) with the views of those that remain.
        keysArb.chain((held) =>
          fc.tuple(
            customersArb(held),
            keysArb.chain((changed) =>
              fc.tuple(
                fc.constant(changed),
                customersArb(changed).chain((views) => fc.subarray(views)),
              ),
            ),
          ),
        ),
        // Whether a filter read the held snapshot's attributes: they are then patched, else built.
        fc.boolean(),
        ([customers, [changed, fresh]], attributesRead) => {
          const previous = buildAccountSnapshot(1, customers, 10);
          if (attributesRead) expect(previous.attributes.id).toHaveLength(customers.length);
          const keys = new Set(changed.map((key) => customerKey(key.dataSourceId, key.id)));
          const patch = patchCustomers(customers, changed, fresh);

          const expected = [
            ...customers.filter((customer) => !keys.has(customerKey(customer.dataSourceId, customer.id))),
            ...fresh,
          ].sort(compareCustomers);
          expect(patch.customers).toEqual(expected);
          const patched = patchAccountSnapshot(previous, 2, patch, 20);
          expect({ ...patched, patchedFrom: [] }).toEqual(buildAccountSnapshot(2, expected, 20));
          expect(patched.patchedFrom).toEqual([{ customers, changed, moves: patch.moves }]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('composes the patches since an earlier customer list into one', () => {
    fc.assert(
      fc.property(
        keysArb.chain(customersArb),
        // Each patch: the changed keys and the views of those that remain.
        fc.array(
          keysArb.chain((changed) =>
            fc.tuple(
              fc.constant(changed),
              customersArb(changed).chain((views) => fc.subarray(views)),
            ),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        fc.nat(),
        (customers, patches, pick) => {
          const snapshots = [buildAccountSnapshot(1, customers)];
          for (const [changed, fresh] of patches) {
            const previous = snapshots.at(-1)!;
            snapshots.push(
              patchAccountSnapshot(
                previous,
                previous.version + 1,
                patchCustomers(previous.customers, changed, fresh),
                0,
              ),
            );
          }
          const last = snapshots.at(-1)!;
          const from = pick % (snapshots.length - 1);
          const since = movesSince(last, snapshots[from]!.customers);
          // Eight patches are remembered; the list of a snapshot read whole before them is not.
          if (snapshots.length - 1 - from > 8) {
            expect(since).toBeUndefined();
            return;
          }
          const changedKeys = new Set(
            patches
              .slice(from)
              .flatMap(([changed]) => changed.map((key) => customerKey(key.dataSourceId, key.id))),
          );
          expect(new Set(since!.changed.map((key) => customerKey(key.dataSourceId, key.id)))).toEqual(
            changedKeys,
          );
          expect(since!.changed).toHaveLength(changedKeys.size);
          const reached = new Set<number>();
          snapshots[from]!.customers.forEach((customer, index) => {
            const at = since!.moves.customerOf[index]!;
            const key = customerKey(customer.dataSourceId, customer.id);
            // Kept throughout: the same view, where it went; else read again by some patch.
            if (at >= 0) expect(last.customers[at]).toBe(customer);
            expect(at < 0).toBe(changedKeys.has(key));
            if (at >= 0) reached.add(at);
          });
          const fresh = last.customers.map((_, at) => at).filter((at) => !reached.has(at));
          expect(since!.moves.freshAt).toEqual(fresh);
          for (const at of fresh) {
            const customer = last.customers[at]!;
            expect(changedKeys.has(customerKey(customer.dataSourceId, customer.id))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("orders a patched snapshot's customers, and gives its MRRs, cohorts and breakdown groups, patched from earlier ones, as a whole build would", () => {
    const fx = FxTable.build([
      { day: '2024-10-01', currency: 'usd', perEur: 1.25 },
      { day: '2024-10-01', currency: 'gbp', perEur: 0.8 },
    ]);
    fc.assert(
      fc.property(
        keysArb.chain(customersArb),
        // Each patch: the changed keys, the views of those that remain, and whether its order is read.
        fc.array(
          fc.tuple(
            keysArb.chain((changed) =>
              fc.tuple(
                fc.constant(changed),
                customersArb(changed).chain((views) => fc.subarray(views)),
              ),
            ),
            fc.boolean(),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        fc.constantFrom(...CUSTOMER_SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        (customers, patches, sort, order) => {
          const query = { today: 20_006, baseCurrency: 'usd', sort, order };
          // Three windows, the first baseline before today and the last after it; customers
          // in two groups and none, by index.
          const windows = [
            { baseline: 20_002, target: 20_005 },
            { baseline: 20_004, target: 20_009 },
            { baseline: 20_008, target: 20_012 },
          ];
          const cohorts = (of: AccountSnapshot, from = windows) =>
            cohortFigures(
              of,
              from,
              {
                ...query,
                fixedRateDay: null,
                groupOf: Int32Array.from(of.customers, (_, index) => (index % 3) - 1),
                groupCount: 2,
              },
              fx,
            );
          const afterToday = [{ baseline: 20_008, target: 20_012 }];
          let snapshot = buildAccountSnapshot(1, customers);
          customerOrder(snapshot, query, fx);
          cohorts(snapshot);
          cohorts(snapshot, afterToday);
          breakdownGroups(snapshot, 'country', null, query.today);
          breakdownGroups(snapshot, 'age', null, query.today);
          for (const [[changed, fresh], read] of patches) {
            snapshot = patchAccountSnapshot(
              snapshot,
              snapshot.version + 1,
              patchCustomers(snapshot.customers, changed, fresh),
              0,
            );
            if (!read) continue;
            // A list of its own: orders are kept per customer list.
            const whole = buildAccountSnapshot(snapshot.version, [...snapshot.customers]);
            expect(customerOrder(snapshot, query, fx)).toEqual(customerOrder(whole, query, fx));
            // The MRRs the order sorts by, patched from the previous list's when it read them.
            expect(mrrsOn(snapshot, query.today)).toEqual(mrrsOn(whole, query.today));
            expect(baseMrrsOn(snapshot, query.today, 'usd', fx)).toEqual(
              baseMrrsOn(whole, query.today, 'usd', fx),
            );
            // Started from each customer's state on the first baseline, patched likewise, and
            // from today's when the first baseline is after it.
            expect(cohorts(snapshot)).toEqual(cohorts(whole));
            expect(cohorts(snapshot, afterToday)).toEqual(cohorts(whole, afterToday));
            // The customers' countries and ages, patched likewise, as groups, within a mask too.
            for (const dimension of ['country', 'age'])
              for (const within of [null, Uint8Array.from(snapshot.customers, (_, index) => index % 2)])
                expect(breakdownGroups(snapshot, dimension, within, query.today)).toEqual(
                  breakdownGroups(whole, dimension, within, query.today),
                );
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('copies the kept customers and finds the fresh ones where they joined', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => customerView(id));
    const bAgain = customerView('b', { currency: 'eur' });
    // b is re-derived, c deleted, d new: a stays at 0, b rejoins at 1, d joins at 2.
    const changed = ['b', 'c', 'd'].map((id) => ({ dataSourceId: 'ds1', id }));
    const patch = patchCustomers([a!, b!, c!], changed, [d!, bAgain]);
    expect(patch.customers).toEqual([a, bAgain, d]);
    expect([...patch.moves.customerOf]).toEqual([0, -1, -1]);
    expect(patch.moves.freshAt).toEqual([1, 2]);

    // A fresh view replaces the held one of its key even when the key was not listed as changed.
    const unlisted = patchCustomers([a!, b!, c!], [{ dataSourceId: 'ds1', id: 'c' }], [bAgain]);
    expect(unlisted.customers).toEqual([a, bAgain]);
    expect([...unlisted.moves.customerOf]).toEqual([0, -1, -1]);
  });
});
