/** What `PeriodMarks.mark` found. */
export const ALREADY_MARKED = 0;
export const FIRST_IN_SLOT = 1;
export const FIRST_IN_PERIOD = 2;

/**
 * Which customers a period has counted, in which slots (movement kinds, subtypes), for counts of
 * distinct customers per slot: one number per customer, the period's index shifted left by the
 * slots' bits and the slots marked in it as those bits. An array of customers times slots would be
 * several times the memory, and each call's fresh memory costs its page faults as well as its fill.
 * Periods come in increasing order; a range holds far fewer than the 2^(31 - slots) it allows.
 */
export class PeriodMarks {
  private readonly marks: Int32Array;

  constructor(
    customers: number,
    private readonly slots: number,
  ) {
    if (slots > 8) throw new RangeError(`PeriodMarks: ${slots} slots, at most 8`);
    this.marks = new Int32Array(customers).fill(-1);
  }

  /** Marks `customer` in `slot` for `period`; says whether it was its first mark there. */
  mark(customer: number, slot: number, period: number): number {
    const mark = this.marks[customer]!;
    const bit = 1 << slot;
    if (mark >> this.slots !== period) {
      this.marks[customer] = (period << this.slots) | bit;
      return FIRST_IN_PERIOD;
    }
    if ((mark & bit) !== 0) return ALREADY_MARKED;
    this.marks[customer] = mark | bit;
    return FIRST_IN_SLOT;
  }
}
