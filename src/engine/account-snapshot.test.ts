import { describe, expect, it } from 'vitest';
import { customerView } from '../../test/helpers/customer-view.js';
import { type AccountSnapshot, buildAccountSnapshot, filteredCustomers } from './account-snapshot.js';
import { FxTable } from './fx-table.js';
import { customerOrder } from './reports/customer-order.js';

describe('reads of the filter attributes', () => {
  const snapshot = () =>
    buildAccountSnapshot(1, [customerView('a', { country: 'FR' }), customerView('b', { country: 'US' })]);
  /** The snapshot, counting the reads of its filter attributes, which a snapshot builds on first use. */
  const counted = (built: AccountSnapshot) => {
    let reads = 0;
    const watched = new Proxy(built, {
      get(target, property, receiver) {
        if (property === 'attributes') reads += 1;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    return { built: watched, reads: () => reads };
  };

  it('keeps every customer without reading the attributes when there is no filter', () => {
    const { built, reads } = counted(snapshot());
    expect(filteredCustomers(built, [], 20_000)).toBeNull();
    expect(reads()).toBe(0);
  });

  it('reads the attributes for a filter', () => {
    const { built, reads } = counted(snapshot());
    const filter = {
      dimension: 'country' as const,
      include: ['US'],
      exclude: [],
      anyValue: false,
      notSet: false,
    };
    expect(Array.from(filteredCustomers(built, [filter], 20_000)!)).toEqual([0, 1]);
    expect(reads()).toBe(1);
  });

  it('orders the customers, ties by id, without reading the attributes', () => {
    const { built, reads } = counted(snapshot());
    const fx = FxTable.build([{ day: '2024-10-01', currency: 'usd', perEur: 1.25 }]);
    const query = { today: 20_000, baseCurrency: 'usd', sort: 'mrr' as const, order: 'desc' as const };
    expect(Array.from(customerOrder(built, query, fx))).toEqual([0, 1]);
    expect(reads()).toBe(0);
  });
});
