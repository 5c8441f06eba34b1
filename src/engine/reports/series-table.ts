/** One measure of a series across its periods: `{metric, <period>: value, ...}`. */
export type SeriesTableRow = { metric: string } & Record<string, number | string | null>;

/**
 * A series (one row per period) turned on its side: one row per measure, one column per
 * period, named by the period's `columnKey` value. This is the table under a report's chart, in
 * a shape a spreadsheet or a terminal table shows without reshaping. The measures are the
 * numeric fields of the rows in their order; `skip` names fields that are not measures.
 */
export function seriesTable(
  rows: readonly object[],
  columnKey: string,
  skip: readonly string[] = [],
): SeriesTableRow[] {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (first === undefined) return [];
  const measures = Object.keys(first).filter(
    (key) =>
      key !== columnKey && !skip.includes(key) && (typeof first[key] === 'number' || first[key] === null),
  );
  return measures.map((metric) => {
    const row: SeriesTableRow = { metric };
    for (const source of rows as readonly Record<string, unknown>[]) {
      row[String(source[columnKey])] = (source[metric] as number | null | undefined) ?? null;
    }
    return row;
  });
}
