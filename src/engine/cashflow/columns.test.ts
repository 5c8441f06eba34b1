import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareText } from '../compare-text.js';
import { TextColumn, type TextList } from './columns.js';

// Latin-1, wider characters and surrogate pairs, empty strings and nulls, in any mix.
const valueArb = fc.option(
  fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('', 'é', '€', '𝔑'),
  ),
  { nil: null },
);

const listOf = (values: readonly (string | null)[]): TextList => {
  const column = new TextColumn(2);
  for (const value of values) column.push(value);
  return column.values();
};

describe('TextColumn', () => {
  it('gives back every value pushed or copied by runs, in order', () => {
    fc.assert(
      fc.property(
        fc.array(valueArb, { maxLength: 20 }),
        fc.array(fc.tuple(fc.array(valueArb, { maxLength: 8 }), fc.nat(), fc.nat()), { maxLength: 4 }),
        fc.array(valueArb, { maxLength: 5 }),
        (first, runs, last) => {
          const column = new TextColumn(2);
          const model: (string | null)[] = [];
          for (const value of first) column.push(value);
          model.push(...first);
          for (const [values, a, b] of runs) {
            const source = listOf(values);
            const start = values.length === 0 ? 0 : a % (values.length + 1);
            const end = start + (values.length === 0 ? 0 : b % (values.length - start + 1));
            column.pushRange(source, start, end);
            model.push(...values.slice(start, end));
          }
          for (const value of last) column.push(value);
          model.push(...last);
          const list = column.values();
          expect(list.length).toBe(model.length);
          expect(list.toArray()).toEqual(model);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('orders two values by code units, as compareText does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 5 }), fc.string({ maxLength: 5 })), {
          minLength: 2,
          maxLength: 10,
        }),
        fc.nat(),
        fc.nat(),
        (values, a, b) => {
          const list = listOf(values);
          const i = a % values.length;
          const j = b % values.length;
          expect(list.compare(i, j)).toBe(compareText(values[i]!, values[j]!));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('extends a whole list copied first in place, and keeps what that list reads', () => {
    const first = listOf(['in_1', null, 'in_2']);
    const column = new TextColumn();
    column.pushRange(first, 0, first.length);
    column.push('in_3');
    const second = column.values();
    expect(second.units.buffer).toBe(first.units.buffer);
    expect(second.toArray()).toEqual(['in_1', null, 'in_2', 'in_3']);
    expect(first.toArray()).toEqual(['in_1', null, 'in_2']);
  });

  it('leaves the list it extended as it was when a wider value comes, or when it ends in nulls', () => {
    const first = listOf(['in_1', null, '', null]);
    const column = new TextColumn();
    column.pushRange(first, 0, first.length);
    column.push(null);
    column.push('in_€');
    expect(column.values().toArray()).toEqual(['in_1', null, '', null, null, 'in_€']);
    expect(first.toArray()).toEqual(['in_1', null, '', null]);
  });

  it('extends a wide list copied first in place too', () => {
    const first = listOf(['in_€', 'in_2']);
    const column = new TextColumn();
    column.pushRange(first, 0, first.length);
    column.push('in_3');
    const second = column.values();
    expect(second.units.buffer).toBe(first.units.buffer);
    expect(second.toArray()).toEqual(['in_€', 'in_2', 'in_3']);
  });

  it('grows a list it extended by a margin, so that the next one extends it again', () => {
    const first = listOf(['in_1']);
    const second = new TextColumn();
    second.pushRange(first, 0, 1);
    for (let n = 2; n <= 20_000; n++) second.push(`in_${n}`);
    const grown = second.values();
    const third = new TextColumn();
    third.pushRange(grown, 0, grown.length);
    third.push('in_20001');
    expect(third.values().units.buffer).toBe(grown.units.buffer);
    expect(third.values().at(20_000)).toBe('in_20001');
  });

  it('keeps extending in place a list that a column sized ahead for far more extended', () => {
    // A patch's columns are sized ahead for the whole table, at 16 characters a value for text;
    // ids take fewer. Grown to that size, the spare was cut off by a copy, and the next patch
    // had to grow (copy) the column again: two copies of every character at every patch.
    const first = listOf(Array.from({ length: 2_000 }, (_, n) => `in_${n}`));
    const second = new TextColumn(100_000);
    second.pushRange(first, 0, first.length);
    for (let n = 2_000; n < 6_000; n++) second.push(`in_${n}`);
    const grown = second.values();
    expect(grown.units.buffer.byteLength).toBeLessThan(grown.endOf(5_999) + 20_000);
    const third = new TextColumn(100_000);
    third.pushRange(grown, 0, grown.length);
    third.push('in_6000');
    const extended = third.values();
    expect(extended.units.buffer).toBe(grown.units.buffer);
    expect(extended.toArray()).toEqual(Array.from({ length: 6_001 }, (_, n) => `in_${n}`));
  });

  it('decodes a value longer than one call takes at once', () => {
    const long = 'x€'.repeat(5_000);
    expect(listOf([long]).at(0)).toBe(long);
  });
});
