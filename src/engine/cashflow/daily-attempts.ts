import { derivedCache } from '../derived-cache.js';
import { transactionDays } from './cashflow-data.js';
import { type CashflowTable, NO_CUSTOMER, REFUND } from './cashflow-table.js';
import type { FailureCounts } from './failure-rate.js';

/**
 * The whole account's payment attempts by day, made in one pass over a table, so that the
 * attempted and failed invoices of any span are a sum over its days. An invoice counts as
 * attempted in a span at its first payment there: a payment that is its invoice's first always
 * is, a later one only when the payment before it falls before the span.
 */
export class DailyAttempts {
  constructor(
    /** The day of index 0. */
    private readonly first: number,
    /** Per day, the payments that are their invoice's first. */
    private readonly firstPayments: Int32Array,
    /** Per day, the invoices' first failed attempts. */
    private readonly firstFailures: Int32Array,
    /** Day `d`'s later payments are `earlierDays[repeatStart[d]]` up to `repeatStart[d + 1]`... */
    private readonly repeatStart: Int32Array,
    /** ...each the day of its invoice's payment before it. */
    private readonly earlierDays: Int32Array,
  ) {}

  /** The counts of the days `from` to `to`, both included. */
  between(from: number, to: number): FailureCounts {
    const counts: FailureCounts = { attempted: 0, failed: 0 };
    const end = Math.min(to - this.first, this.firstPayments.length - 1);
    for (let index = Math.max(from - this.first, 0); index <= end; index++) {
      counts.attempted += this.firstPayments[index]!;
      counts.failed += this.firstFailures[index]!;
      for (let repeat = this.repeatStart[index]!; repeat < this.repeatStart[index + 1]!; repeat++) {
        if (this.earlierDays[repeat]! < from) counts.attempted += 1;
      }
    }
    return counts;
  }
}

/** The table's attempts by day: one pass over its transactions, then a counting sort of the later payments. */
function attemptsOf(table: CashflowTable, days: { from: number; to: number }): DailyAttempts {
  const { transactionDay, transactionFlags, transactionInvoice, invoiceCustomer, firstFailure } = table;
  const first = days.from;
  const length = days.to - first + 1;
  const firstPayments = new Int32Array(length);
  const firstFailures = new Int32Array(length);
  const repeatStart = new Int32Array(length + 1);
  const repeats: number[] = [];
  let invoice = -1;
  let earlier: number | null = null;
  for (let payment = 0; payment < table.transactionCount; payment++) {
    // An invoice's transactions are together and in time order.
    if (transactionInvoice[payment] !== invoice) {
      invoice = transactionInvoice[payment]!;
      earlier = null;
    }
    if ((transactionFlags[payment]! & REFUND) !== 0 || invoiceCustomer[invoice] === NO_CUSTOMER) continue;
    const day = transactionDay[payment]!;
    const index = day - first;
    if (earlier === null) firstPayments[index] = firstPayments[index]! + 1;
    else repeats.push(index, earlier);
    if (firstFailure[invoice] === payment) firstFailures[index] = firstFailures[index]! + 1;
    earlier = day;
  }
  for (let repeat = 0; repeat < repeats.length; repeat += 2) {
    repeatStart[repeats[repeat]! + 1] = repeatStart[repeats[repeat]! + 1]! + 1;
  }
  for (let index = 0; index < length; index++)
    repeatStart[index + 1] = repeatStart[index + 1]! + repeatStart[index]!;
  const placed = repeatStart.slice(0, length);
  const earlierDays = new Int32Array(repeats.length / 2);
  for (let repeat = 0; repeat < repeats.length; repeat += 2) {
    const index = repeats[repeat]!;
    earlierDays[placed[index]!] = repeats[repeat + 1]!;
    placed[index] = placed[index]! + 1;
  }
  return new DailyAttempts(first, firstPayments, firstFailures, repeatStart, earlierDays);
}

const perTable = derivedCache<CashflowTable, DailyAttempts | null>(1);

/**
 * The table's daily attempts, made once per table; null when its transactions span too many
 * days to keep per day (see `transactionDays`), where counts take a pass over the span instead.
 */
export function dailyAttempts(table: CashflowTable): DailyAttempts | null {
  return perTable(table, 'attempts', () => {
    const days = transactionDays(table);
    return days && attemptsOf(table, days);
  });
}
