import { allocate } from '../allocate.js';
import { derivedCache } from '../derived-cache.js';
import type { FxTable } from '../fx-table.js';
import { periodsBetween } from '../periods.js';
import type { Snapshot } from '../snapshot.js';
import type { MovementKind } from '../types.js';
import { MOVEMENT_KINDS, MOVEMENT_SUBTYPES, SUBTYPES_OF_KIND } from '../vocabulary.js';
import {
  baseConverter,
  frozenRows,
  movementCounts,
  mrrReport,
  type MrrQuery,
  type MrrRow,
  sharedQueryKey,
} from './mrr.js';
import { ALREADY_MARKED, PeriodMarks } from './period-marks.js';

/** The movement kinds `/reports/mrr-subtypes` splits: the others have one subtype each. */
export const SPLIT_KINDS = ['expansion', 'contraction', 'churn'] as const satisfies readonly MovementKind[];
export type SplitKind = (typeof SPLIT_KINDS)[number];

/**
 * One period of a kind split by subtype: `<subtype>` in cents of the base currency and
 * `<subtype>_customers`, for each subtype of the kind, then the kind's own column and customer
 * count as `/reports/mrr` has them.
 */
export type MrrSubtypesRow = { date: string; end_date: string } & Record<string, number | string>;

/**
 * A kind's MRR per period split by subtype. The subtypes' amounts are allocated to add up to
 * the kind's column of the MRR report exactly (each converted at its own day's rate, or at the
 * range end's with fixFx, as that report converts). A customer with movements of two subtypes
 * in one period counts in both, so subtype customer counts may add up to more than the kind's.
 */
export function mrrSubtypesReport(
  snapshot: Snapshot,
  query: MrrQuery,
  kind: SplitKind,
  fx: FxTable,
  mrrRows: readonly MrrRow[] = mrrReport(snapshot, query, fx),
): readonly Readonly<MrrSubtypesRow>[] {
  const key = sharedQueryKey(query, fx);
  const make = () => frozenRows(splitBySubtype(snapshot, query, kind, fx, mrrRows));
  return key === null ? make() : keptSplits(snapshot, `${kind}|${key}`, make);
}

/** Kept as the MRR report is (`sharedQueryKey`): the subtypes report and the table with subtypes share them. */
const keptSplits = derivedCache<Snapshot, readonly Readonly<MrrSubtypesRow>[]>(8);

function splitBySubtype(
  snapshot: Snapshot,
  query: MrrQuery,
  kind: SplitKind,
  fx: FxTable,
  mrrRows: readonly MrrRow[],
): MrrSubtypesRow[] {
  const subtypes = SUBTYPES_OF_KIND[kind];
  const kindIndex = MOVEMENT_KINDS.indexOf(kind);
  // Snapshot subtype index -> position among this kind's subtypes.
  const position = MOVEMENT_SUBTYPES.map((subtype) => subtypes.indexOf(subtype));
  const counted = movementCounts(snapshot, query);
  const toBase = baseConverter(snapshot, query, fx);
  const marks = new PeriodMarks(snapshot.customerIds.length, subtypes.length);

  let i = 0;
  for (; i < snapshot.movementCount && snapshot.movementDay[i]! < query.from; i++);
  return periodsBetween(query.from, query.to, query.interval).map((period, index) => {
    const amounts = new Float64Array(subtypes.length);
    const customers = new Int32Array(subtypes.length);
    for (; i < snapshot.movementCount && snapshot.movementDay[i]! <= period.end; i++) {
      if (snapshot.movementKind[i] !== kindIndex || !counted(i)) continue;
      const at = position[snapshot.movementSubtype[i]!]!;
      const customer = snapshot.movementCustomer[i]!;
      amounts[at]! += toBase(
        snapshot.customerCurrency[customer]!,
        snapshot.movementAmount[i]!,
        snapshot.movementDay[i]!,
      );
      if (marks.mark(customer, at, index) !== ALREADY_MARKED) customers[at]! += 1;
    }
    const mrrRow = mrrRows[index]!;
    const parts = allocate([...amounts], mrrRow[kind]);
    const row: MrrSubtypesRow = { date: mrrRow.date, end_date: mrrRow.end_date };
    subtypes.forEach((subtype, at) => {
      row[subtype] = parts[at]!;
      row[`${subtype}_customers`] = customers[at]!;
    });
    row[kind] = mrrRow[kind];
    row[`${kind}_customers`] = mrrRow[`${kind}_customers`];
    return row;
  });
}

/**
 * MRR report rows with each split kind's subtypes beside it: `<kind>_<subtype>` after the
 * kind's amount and `<kind>_<subtype>_customers` after its customer count. The table form of
 * this is `/reports/mrr-table-subtypes`.
 */
export function mrrRowsWithSubtypes(
  snapshot: Snapshot,
  query: MrrQuery,
  fx: FxTable,
): Record<string, number | string>[] {
  const mrrRows = mrrReport(snapshot, query, fx);
  const split = new Map(
    SPLIT_KINDS.map((kind) => [kind, mrrSubtypesReport(snapshot, query, kind, fx, mrrRows)] as const),
  );
  return mrrRows.map((mrrRow, index) => {
    const row: Record<string, number | string> = {};
    for (const [field, value] of Object.entries<number | string>(mrrRow)) {
      row[field] = value;
      const suffix = field.endsWith('_customers') ? '_customers' : '';
      const kind = field.slice(0, field.length - suffix.length) as SplitKind;
      const rows = split.get(kind);
      if (rows === undefined) continue;
      const source: Record<string, number | string> = rows[index]!;
      for (const subtype of SUBTYPES_OF_KIND[kind]) {
        row[`${kind}_${subtype}${suffix}`] = source[`${subtype}${suffix}`]!;
      }
    }
    return row;
  });
}
