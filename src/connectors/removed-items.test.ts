import { describe, expect, it } from 'vitest';
import { removedItemRecords } from './removed-items.js';

describe('removedItemRecords', () => {
  const fields = { customer_id: 'c1', started_at: '2026-01-05T10:00:00.000Z', currency: 'usd' };
  type Line = { sub: string; item: string; qty: number; end: string; amount: number };
  const line = (item: string, end: string, fields: Partial<Line> = {}): Line => ({
    sub: 's1',
    item,
    qty: 2,
    end,
    amount: 500,
    ...fields,
  });
  const billed = (l: Line) =>
    l.item === ''
      ? undefined
      : {
          subscription: l.sub,
          record: l.item,
          planId: `plan-${l.item}`,
          quantity: l.qty,
          end: new Date(l.end),
          credit: l.amount < 0,
        };

  it('ends each billed record the fresh read no longer names at the end of its last billed period', () => {
    const lines = [
      // Billed Jan 5 to Feb 5 and Feb 5 to Mar 5 (listed out of order), then removed.
      line('gone', '2026-03-05T10:00:00Z', { qty: 3 }),
      line('gone', '2026-02-05T10:00:00Z'),
      // The credit for its unused time after a removal on Feb 20 bills no period of its own.
      line('gone', '2026-03-20T10:00:00Z', { amount: -250 }),
      // Still named: stays as the read gives it.
      line('kept', '2026-04-05T10:00:00Z'),
      // Another subscription's item, and a line billing no item.
      line('other', '2026-04-05T10:00:00Z', { sub: 's2' }),
      line('', '2026-04-05T10:00:00Z'),
    ];
    expect(removedItemRecords({ id: 's1', named: new Set(['kept']), fields }, lines, billed)).toEqual([
      {
        id: 'gone',
        customer_id: 'c1',
        started_at: '2026-01-05T10:00:00.000Z',
        currency: 'usd',
        plan_id: 'plan-gone',
        quantity: 3,
        status: 'canceled',
        cancel_requested_at: null,
        cancel_at: null,
        ended_at: '2026-03-05T10:00:00.000Z',
        scheduled_changes: [],
      },
    ]);
  });

  it('is nothing when every billed record is named', () => {
    const lines = [line('a', '2026-02-05T10:00:00Z'), line('b', '2026-02-05T10:00:00Z')];
    expect(removedItemRecords({ id: 's1', named: new Set(['a', 'b']), fields }, lines, billed)).toEqual([]);
  });
});
