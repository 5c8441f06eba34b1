import { describe, expect, it } from 'vitest';
import { type CopyRow, eachCopyRow, groupKey, lastCopyRow } from './copy-text.js';

/** `text` as chunks of `size` bytes: lines, fields and multi-byte characters split anywhere. */
async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function rows<T>(text: string, size: number, read: (row: CopyRow) => T): Promise<T[]> {
  const found: T[] = [];
  await eachCopyRow(chunks(text, size), (row) => found.push(read(row)));
  return found;
}

// As COPY's text format writes them: \N for null, backslash escapes for tab, newline, backslash.
const TEXT = [
  'in_1\t-42\t\\N\tplain',
  'in_2\t0\t7\tTab\\there, line\\nbreak, back\\\\slash',
  'in_3\t9007199254740991\t\\N\tÉté 🌍 ünïcode',
  '',
].join('\n');

describe('eachCopyRow', () => {
  it('reads strings, escapes, nulls and integers, however the bytes are split', async () => {
    const expected = [
      ['in_1', -42, null, 'plain'],
      ['in_2', 0, 7, 'Tab\there, line\nbreak, back\\slash'],
      ['in_3', Number.MAX_SAFE_INTEGER, null, 'Été 🌍 ünïcode'],
    ];
    for (const size of [1, 2, 3, 5, 7, 64, 4096]) {
      expect(
        await rows(TEXT, size, (row) => [
          row.string(0),
          row.integer(1),
          row.integerOrNull(2),
          row.stringOrNull(3),
        ]),
      ).toEqual(expected);
    }
  });

  it('compares a field with ASCII text in place', async () => {
    expect(
      await rows('refund\tpayment\n\\N\tx\n', 3, (row) => [row.is(0, 'refund'), row.is(1, 'refund')]),
    ).toEqual([
      [true, false],
      [false, false],
    ]);
  });

  it('tells the first row of each group of equal leading fields', async () => {
    const group = groupKey();
    const text = 'a\t1\tx\na\t1\ty\na\t2\tz\nb\t2\tz\nb\t2\tw\n';
    expect(await rows(text, 4, (row) => row.startsGroup(2, group))).toEqual([true, false, true, true, false]);
  });

  it('refuses a field that is not an integer, and text that ends inside a row', async () => {
    await expect(rows('12a\n', 64, (row) => row.integer(0))).rejects.toThrow(/not an integer/);
    await expect(rows('-\n', 64, (row) => row.integer(0))).rejects.toThrow(/not an integer/);
    await expect(rows('a\tb', 64, (row) => row.string(0))).rejects.toThrow(/ended inside a row/);
  });
});

describe('lastCopyRow', () => {
  it('finds the last row of text held whole, or none in empty text', () => {
    expect(lastCopyRow(Buffer.from(TEXT))?.string(3)).toBe('Été 🌍 ünïcode');
    // An escaped newline inside a field does not end the row.
    expect(lastCopyRow(Buffer.from(TEXT.split('\n').slice(0, 2).join('\n') + '\n'))?.string(3)).toBe(
      'Tab\there, line\nbreak, back\\slash',
    );
    expect(lastCopyRow(Buffer.from('only\trow\n'))?.string(1)).toBe('row');
    expect(lastCopyRow(Buffer.alloc(0))).toBeNull();
  });
});
