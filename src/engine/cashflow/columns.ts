/**
 * The columns a cashflow table is built from: numbers in typed arrays that grow by doubling, and
 * strings packed into typed arrays of character codes, both outside the garbage-collected heap.
 */

export type NumberArray = Int32Array | Uint8Array | Uint16Array | Float64Array;

/**
 * How many values of each column buffer the tables holding it read (-1 while a column extends it):
 * a patched table's column may extend its previous table's buffer in place, past every value a
 * table reads, rather than copy it.
 */
const readLengths = new WeakMap<ArrayBufferLike, number>();

/**
 * A typed column filled one value at a time, doubling as it goes: its buffer lives outside the
 * garbage-collected heap, where a growing array of a million numbers would be copied there.
 * `slack` is the room kept past the values: a buffer with at most that much to spare is kept as
 * it is, and a column extending another's buffer in place grows by at least that much once it is
 * full, so the next patch can extend it again rather than copy it.
 */
export class Column<A extends NumberArray> {
  private array: A | undefined;
  private length = 0;
  /** The length of the buffer this column extended in place, or -1 when it extended none. */
  private extendedFrom = -1;

  constructor(
    private readonly kind: { new (length: number): A; new (buffer: ArrayBufferLike): A },
    private readonly capacity = 1024,
    private readonly slack = 1024,
  ) {}

  get size(): number {
    return this.length;
  }

  push(value: number): void {
    let array = this.array;
    if (array === undefined || this.length === array.length) array = this.grow(this.length + 1);
    array[this.length++] = value;
  }

  /** Appends the UTF-16 code units of `text`, one value each. */
  pushCodes(text: string): void {
    const array = this.withRoom(text.length);
    for (let index = 0; index < text.length; index++) array[this.length + index] = text.charCodeAt(index);
    this.length += text.length;
  }

  /** Appends `source[start..end)` in one copy, or none when it starts from a whole column it may extend. */
  pushRange(
    source: ArrayLike<number> & { subarray(start: number, end: number): ArrayLike<number> },
    start: number,
    end: number,
  ): void {
    if (this.array === undefined && start === 0 && this.extends(source, end)) return;
    this.withRoom(end - start).set(source.subarray(start, end), this.length);
    this.length += end - start;
  }

  /** Appends `count` copies of `value`. */
  pushRepeated(value: number, count: number): void {
    this.withRoom(count).fill(value, this.length, this.length + count);
    this.length += count;
  }

  /** The array, grown first when `count` more values do not fit. */
  private withRoom(count: number): A {
    return this.array === undefined || this.length + count > this.array.length
      ? this.grow(this.length + count)
      : this.array;
  }

  /**
   * Starts as `source` itself, when it is a whole column over the start of a buffer that no
   * other column extended past it: the tables holding it read only their own length of it.
   */
  private extends(source: ArrayLike<number>, end: number): boolean {
    if (!(source instanceof this.kind) || source.byteOffset !== 0 || end !== source.length) return false;
    if (readLengths.get(source.buffer) !== end) return false;
    readLengths.set(source.buffer, -1);
    this.array = new this.kind(source.buffer);
    this.length = end;
    this.extendedFrom = end;
    return true;
  }

  /** The buffer sized ahead at first, then doubled; one extended in place, as `extensionSize` says. */
  private grow(least: number): A {
    const size = this.isExtension()
      ? this.extensionSize(least)
      : least <= this.capacity
        ? this.capacity
        : Math.max(least, 2 * this.length);
    const larger = new this.kind(size);
    if (this.array) larger.set(this.array.subarray(0, this.length));
    this.array = larger;
    return larger;
  }

  /**
   * What a column extended in place grows to: the size sized ahead when that is at most a quarter
   * of its length past what it needs (a patch's number columns, sized for the previous table and
   * the added invoices, which a patch keeps under a fifth of the customers), else its room past
   * what it needs. Text is sized ahead at 16 characters a value, where ids often take fewer:
   * grown to that, a third of the column could stay spare.
   */
  private extensionSize(least: number): number {
    return least <= this.capacity && this.capacity - least <= this.length >> 2
      ? this.capacity
      : least + this.room();
  }

  private isExtension(): boolean {
    return this.extendedFrom >= 0;
  }

  /**
   * Room an extended column keeps past its values when it grows: `slack`, a 64th of its length,
   * or as much as it has added to the buffer it extended, whichever is most. A write's patch
   * adds a few values and keeps a little room for the next; one that adds many (a fifth of the
   * customers read again) doubles what it added at each growth, so it copies the column a few
   * times, not once per slack.
   */
  private room(): number {
    return Math.max(this.slack, this.length >> 6, this.length - this.extendedFrom);
  }

  /**
   * The values pushed. A buffer extended in place keeps at most its room spare and is kept as it
   * is, for the next patch to extend; so is one sized ahead and nearly full. One with more than
   * `slack` to spare (grown by doubling, or sized ahead for more) is copied to the values' size.
   */
  values(): A {
    const array = this.array ?? this.grow(0);
    const spare = array.length - this.length;
    const kept = this.isExtension() || spare <= this.slack;
    const values = (kept ? array.subarray(0, this.length) : array.slice(0, this.length)) as A;
    readLengths.set(values.buffer, this.length);
    return values;
  }
}

/**
 * `previous` (a column's values; none when null) followed by `count` copies of `value`, as a
 * column's values: a whole column no other column extended is extended in place, and a new one
 * keeps room past its values, so that a table patched from one holding it can extend it in turn.
 */
export function extendedColumn<A extends NumberArray>(
  kind: { new (length: number): A; new (buffer: ArrayBufferLike): A },
  previous: A | null,
  count: number,
  value: number,
): A {
  const column = new Column(kind, (previous?.length ?? 0) + count + 1024);
  if (previous !== null) column.pushRange(previous, 0, previous.length);
  column.pushRepeated(value, count);
  return column.values();
}

/** A packed value's end, whether the value is a string or a null (stored as -1 - end). */
const endOf = (stored: number) => (stored >= 0 ? stored : -1 - stored);

/** Values longer than this are decoded in parts: a call takes only so many arguments. */
const DECODED_AT_ONCE = 4096;

/**
 * Strings and nulls packed into one array of character codes (Latin-1 bytes, or UTF-16 code
 * units once a value needs them) with each value's end: what a million invoice ids cost the
 * heap is two typed arrays, where a million strings would each be an object the collector walks
 * at every full collection.
 */
export class TextList {
  constructor(
    readonly units: Uint8Array | Uint16Array,
    /** Each value's end in `units`; a null's is stored as -1 - end. */
    readonly ends: Int32Array,
  ) {}

  get length(): number {
    return this.ends.length;
  }

  /** Where the value at `index` starts in `units`. */
  startOf(index: number): number {
    return index === 0 ? 0 : endOf(this.ends[index - 1]!);
  }

  /** Where the value at `index` ends in `units`. */
  endOf(index: number): number {
    return endOf(this.ends[index]!);
  }

  at(index: number): string | null {
    const end = this.ends[index]!;
    if (end < 0) return null;
    let text = '';
    for (let start = this.startOf(index); start < end; start += DECODED_AT_ONCE)
      text += String.fromCharCode(...this.units.subarray(start, Math.min(end, start + DECODED_AT_ONCE)));
    return text;
  }

  /** Orders two strings of the list by code units, as compareText does, without decoding them. */
  compare(a: number, b: number): number {
    const { units } = this;
    const aEnd = this.endOf(a);
    const bEnd = this.endOf(b);
    let i = this.startOf(a);
    let j = this.startOf(b);
    for (; i < aEnd && j < bEnd; i++, j++) {
      if (units[i] !== units[j]) return units[i]! < units[j]! ? -1 : 1;
    }
    return Math.sign(aEnd - i - (bEnd - j));
  }

  toArray(): (string | null)[] {
    return Array.from({ length: this.length }, (_, index) => this.at(index));
  }
}

/** Characters a text column expects per value, and the room it keeps past the last, in values. */
const UNITS_PER_VALUE = 16;
const SLACK_VALUES = 1024;

const unitColumn = (kind: Uint8ArrayConstructor | Uint16ArrayConstructor, values: number) =>
  new Column<Uint8Array | Uint16Array>(kind, values * UNITS_PER_VALUE, SLACK_VALUES * UNITS_PER_VALUE);

/** Whether every character of `text` is one byte in Latin-1. */
function isLatin1(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0xff) return false;
  return true;
}

/**
 * A TextList filled one value at a time or by runs of another list, as a Column is: a first run
 * that is a whole list no other table extended is extended in place, not copied.
 */
export class TextColumn {
  private units: Column<Uint8Array | Uint16Array>;
  private wide = false;
  private readonly ends: Column<Int32Array>;

  /** `capacity`: the values expected. */
  constructor(private readonly capacity = 1024) {
    this.units = unitColumn(Uint8Array, capacity);
    this.ends = new Column(Int32Array, capacity);
  }

  get length(): number {
    return this.ends.size;
  }

  push(value: string | null): void {
    if (value === null) {
      this.ends.push(-1 - this.units.size);
      return;
    }
    if (!this.wide && !isLatin1(value)) this.widen();
    this.units.pushCodes(value);
    this.ends.push(this.units.size);
  }

  pushRange(source: TextList, start: number, end: number): void {
    if (start === end) return;
    const from = source.startOf(start);
    if (!this.wide && source.units instanceof Uint16Array) this.widen();
    const shift = this.units.size - from;
    this.units.pushRange(source.units, from, source.endOf(end - 1));
    if (shift === 0) this.ends.pushRange(source.ends, start, end);
    else
      for (let index = start; index < end; index++) {
        const stored = source.ends[index]!;
        this.ends.push(stored >= 0 ? stored + shift : stored - shift);
      }
  }

  values(): TextList {
    return new TextList(this.units.values(), this.ends.values());
  }

  /**
   * Two bytes a character from now on: a value outside Latin-1 came. Before any character, the
   * column starts afresh, so a wide list copied first is still extended in place.
   */
  private widen(): void {
    const wide = unitColumn(Uint16Array, this.capacity);
    if (this.units.size > 0) {
      const narrow = this.units.values();
      wide.pushRange(narrow, 0, narrow.length);
    }
    this.units = wide;
    this.wide = true;
  }
}
