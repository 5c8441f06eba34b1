import { describe, expect, it } from 'vitest';
import { dayNumber as d, dayString } from '../days.js';
import { percentOf, pointChange, toDateFields, toDateSpan } from './to-date.js';

const show = ({ start, end }: { start: number; end: number }) => `${dayString(start)}..${dayString(end)}`;

describe('toDateSpan', () => {
  it('twins month, quarter and year to date with the same span before, clamped to shorter months', () => {
    const spans = (today: string, name: 'mtd' | 'qtd' | 'ytd') => {
      const { current, previous } = toDateSpan(d(today), name);
      return [show(current), show(previous)];
    };
    expect(spans('2026-11-23', 'mtd')).toEqual(['2026-11-01..2026-11-23', '2026-10-01..2026-10-23']);
    expect(spans('2026-03-31', 'mtd')).toEqual(['2026-03-01..2026-03-31', '2026-02-01..2026-02-28']);
    expect(spans('2026-11-23', 'qtd')).toEqual(['2026-10-01..2026-11-23', '2026-07-01..2026-08-23']);
    expect(spans('2028-02-29', 'ytd')).toEqual(['2028-01-01..2028-02-29', '2027-01-01..2027-02-28']);
  });
});

describe('rates', () => {
  it('never divides by zero and rounds to two decimals', () => {
    expect(percentOf(1, 3)).toBe(33.33);
    expect(percentOf(2, 3)).toBe(66.67);
    expect(percentOf(0, 0)).toBeNull();
    expect(pointChange(33.33, 50)).toBe(-16.67);
    expect(pointChange(null, 50)).toBeNull();
  });
});

describe('toDateFields', () => {
  it('names each figure, its twin and its changes', () => {
    expect(toDateFields({ spans: ['mtd'], figures: ['a', 'r'], percent: ['a'], point: ['r'] })).toEqual([
      'mtd_a',
      'prev_mtd_a',
      'mtd_r',
      'prev_mtd_r',
      'mtd_a_change_pct',
      'mtd_r_change',
    ]);
  });
});
