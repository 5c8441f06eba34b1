/** The characters COPY's text format writes after a backslash, and what each stands for. */
const ESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;
const MINUS = 45;
const ZERO = 48;
const CAPITAL_N = 78;

/** The leading fields of the last group's first row, as bytes (`CopyRow.startsGroup`). */
export interface GroupKey {
  bytes: Buffer;
  length: number;
}

export const groupKey = (): GroupKey => ({ bytes: Buffer.alloc(256), length: -1 });

/**
 * One row of `COPY ... TO STDOUT` in the text format, read in place: fields are found by their
 * tabs and decoded only when asked for, numbers without making a string. A million-row read
 * then makes no object per row and no string per number, where a driver's rows make both.
 * Strings are decoded from the bytes into strings of their own: a slice of a larger string
 * would keep all of it alive for as long as a table holds the slice.
 */
export class CopyRow {
  private bytes: Buffer = Buffer.alloc(0);
  private starts = new Int32Array(16);
  private ends = new Int32Array(16);

  /** Points the row at `bytes[start..end)`, a line without its newline. */
  set(bytes: Buffer, start: number, end: number): void {
    this.bytes = bytes;
    let field = 0;
    let at = start;
    for (;;) {
      if (field === this.starts.length) this.grow();
      let tab = bytes.indexOf(TAB, at);
      if (tab < 0 || tab > end) tab = end;
      this.starts[field] = at;
      this.ends[field] = tab;
      field++;
      if (tab === end) break;
      at = tab + 1;
    }
  }

  isNull(field: number): boolean {
    const start = this.starts[field]!;
    return (
      this.ends[field]! - start === 2 &&
      this.bytes[start] === BACKSLASH &&
      this.bytes[start + 1] === CAPITAL_N
    );
  }

  string(field: number): string {
    const raw = this.bytes.toString('utf8', this.starts[field], this.ends[field]);
    return this.escaped(field) ? raw.replace(/\\(.)/g, (_, char: string) => ESCAPED[char] ?? char) : raw;
  }

  stringOrNull(field: number): string | null {
    return this.isNull(field) ? null : this.string(field);
  }

  /** Whether the field holds the ASCII text `value` (no escapes), compared in place. */
  is(field: number, value: string): boolean {
    const start = this.starts[field]!;
    if (this.ends[field]! - start !== value.length) return false;
    for (let offset = 0; offset < value.length; offset++)
      if (this.bytes[start + offset] !== value.charCodeAt(offset)) return false;
    return true;
  }

  /**
   * Whether fields 0 to `count - 1` differ from those `group` holds, which then takes them: in
   * a read sorted by those fields, whether this row is the first of its group.
   */
  startsGroup(count: number, group: GroupKey): boolean {
    const start = this.starts[0]!;
    const end = this.ends[count - 1]!;
    const length = end - start;
    if (length === group.length && this.bytes.compare(group.bytes, 0, length, start, end) === 0) return false;
    if (group.bytes.length < length) group.bytes = Buffer.alloc(2 * length);
    this.bytes.copy(group.bytes, 0, start, end);
    group.length = length;
    return true;
  }

  /** An integer field (int, bigint within 2^53), read digit by digit. */
  integer(field: number): number {
    const bytes = this.bytes;
    let at = this.starts[field]!;
    const end = this.ends[field]!;
    const negative = bytes[at] === MINUS;
    if (negative) at++;
    if (at === end) throw new RangeError(`COPY field ${field} is not an integer`);
    let value = 0;
    for (; at < end; at++) {
      const digit = bytes[at]! - ZERO;
      if (digit < 0 || digit > 9) throw new RangeError(`COPY field ${field} is not an integer`);
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  integerOrNull(field: number): number | null {
    return this.isNull(field) ? null : this.integer(field);
  }

  private escaped(field: number): boolean {
    for (let at = this.starts[field]!; at < this.ends[field]!; at++)
      if (this.bytes[at] === BACKSLASH) return true;
    return false;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}

/**
 * The last row of COPY text held whole in `bytes` (ending with its newline), or null when it
 * holds none.
 */
export function lastCopyRow(bytes: Buffer): CopyRow | null {
  if (bytes.length === 0) return null;
  const row = new CopyRow();
  row.set(bytes, bytes.lastIndexOf(NEWLINE, bytes.length - 2) + 1, bytes.length - 1);
  return row;
}

/**
 * Calls `visit` with each row of COPY text arriving in `chunks` (split anywhere), the same
 * `CopyRow` each time, pointed at the next line. Tabs and newlines are single bytes that never
 * occur inside a multi-byte UTF-8 character, so a line is found in the bytes before decoding.
 */
export async function eachCopyRow(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  visit: (row: CopyRow) => void,
): Promise<void> {
  const row = new CopyRow();
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const bytes = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    let at = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, at)) {
      row.set(bytes, at, end);
      visit(row);
      at = end + 1;
    }
    rest = bytes.subarray(at);
  }
  if (rest.length !== 0) throw new Error('COPY text ended inside a row');
}
