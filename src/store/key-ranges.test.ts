import { describe, expect, it } from 'vitest';
import { keyRangesJson } from './key-ranges.js';

describe('keyRangesJson', () => {
  const ranges = (page: [string, string][]) =>
    JSON.parse(
      keyRangesJson(
        page,
        ([source]) => source,
        ([, id]) => id,
      ),
    ) as unknown;

  it('gives one range per data source a key-ordered page spans, from its first id to its last', () => {
    expect(
      ranges([
        ['a', 'in_1'],
        ['a', 'in_5'],
        ['a', 'in_9'],
        ['b', 'in_0'],
        ['c', 'x'],
        ['c', 'y'],
      ]),
    ).toEqual([
      { s: 'a', lo: 'in_1', hi: 'in_9' },
      { s: 'b', lo: 'in_0', hi: 'in_0' },
      { s: 'c', lo: 'x', hi: 'y' },
    ]);
    expect(ranges([])).toEqual([]);
  });
});
