import { describe, expect, it } from 'vitest';
import { dayNumber as d } from './days.js';
import { quantityPoints } from './quantity.js';
import { OPEN_END, type Segment } from './types.js';

const segment = (
  key: string,
  start: string,
  end: string | null,
  monthly: number,
  quantity: number,
): Segment => ({
  key,
  subscriptionId: key,
  planId: 'p',
  start: d(start),
  end: end === null ? OPEN_END : d(end),
  monthly,
  quantity,
  billed: { currency: 'usd', monthly, discount: 0 },
});

describe('quantityPoints', () => {
  it('counts each subscription once per day, by the segment that describes that day', () => {
    const points = quantityPoints([
      // sub_a: 3 seats in March; on Mar 16 an upgrade to 5 seats: a credit for the unused 3 seats and a
      // prorated line for 5 seats until Apr 1 overlap the March line; April bills 5 seats.
      segment('sub_a', '2024-03-01', '2024-04-01', 3_000, 3),
      segment('sub_a', '2024-03-16', '2024-04-01', -1_500, 3),
      segment('sub_a', '2024-03-16', '2024-04-01', 2_500, 5),
      segment('sub_a', '2024-04-01', '2024-05-01', 5_000, 5),
      // sub_b: 2 units from Apr 10, running on.
      segment('sub_b', '2024-04-10', null, 1_000, 2),
    ]);
    // Mar 1: 3. Mar 16: the prorated 5-seat line starts later than the March line, so 5 (the credit
    // describes nothing). Apr 1: still 5. Apr 10: 5 + 2 = 7. May 1: sub_a ends, 2 remain.
    expect(points).toEqual([
      { day: d('2024-03-01'), quantity: 3 },
      { day: d('2024-03-16'), quantity: 5 },
      { day: d('2024-04-10'), quantity: 7 },
      { day: d('2024-05-01'), quantity: 2 },
    ]);
  });

  it('adds up the items a subscription bills from the same day', () => {
    // 10 seats at 10000 and 10 add-on units at 2000, both on sub_a from Mar 1: 20 units.
    expect(
      quantityPoints([
        segment('sub_a', '2024-03-01', '2024-04-01', 10_000, 10),
        segment('sub_a', '2024-03-01', '2024-04-01', 2_000, 10),
      ]),
    ).toEqual([
      { day: d('2024-03-01'), quantity: 20 },
      { day: d('2024-04-01'), quantity: 0 },
    ]);
  });

  it('has no points without positive segments', () => {
    expect(quantityPoints([segment('sub_a', '2024-03-01', '2024-04-01', -500, 1)])).toEqual([]);
  });
});
