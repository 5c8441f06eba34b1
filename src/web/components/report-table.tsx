import type { ComponentChildren } from 'preact';
import { downloadCsv } from '../csv.js';
import { count, money, percent } from '../format.js';

type Cell = string | number | null;

/**
 * One column of a report table: `value` is the API's figure, which the CSV keeps as it is
 * (amounts in cents, rates in percent), and `format` how the page shows it.
 */
export interface Column<Row> {
  key: string;
  label: string;
  value: (row: Row) => Cell;
  format?: (value: Cell) => string;
  numeric?: boolean;
}

/** How a figure reads: cents of the report's currency, a count, or a percentage. */
export type Kind = 'money' | 'count' | 'percent';

export function formatter(kind: Kind, currency: string): (value: number | null) => string {
  if (kind === 'money') return (value) => money(value, currency);
  if (kind === 'percent') return percent;
  return count;
}

/** A numeric column of the API's figure `value`, shown as `kind`; the CSV keeps the figure. */
export function figure<Row>(
  key: string,
  label: string,
  kind: Kind,
  currency: string,
  value: (row: Row) => number | null,
): Column<Row> {
  const format = formatter(kind, currency);
  return { key, label, value, format: (cell) => format(cell as number | null), numeric: true };
}

export function downloadTable<Row>(filename: string, columns: Column<Row>[], rows: Row[]): void {
  downloadCsv(
    filename,
    columns.map((column) => column.key),
    rows.map((row) => columns.map((column) => column.value(row))),
  );
}

/**
 * A panel of a report page: a title, a CSV download of `rows` in `columns`, and its content,
 * or the `empty` sentence when there is nothing to show.
 */
export function ReportPanel<Row>(props: {
  title: string;
  filename: string;
  columns: Column<Row>[];
  rows: Row[];
  empty: string | false;
  children: ComponentChildren;
}) {
  return (
    <section class="panel" data-panel={props.filename.replace(/\.csv$/, '')}>
      <header class="panel-head">
        <h2>{props.title}</h2>
        <button
          type="button"
          class="secondary"
          disabled={props.rows.length === 0}
          onClick={() => downloadTable(props.filename, props.columns, props.rows)}
        >
          Download CSV
        </button>
      </header>
      {props.empty ? <p class="empty">{props.empty}</p> : props.children}
    </section>
  );
}

/** The rows as the page shows them; each cell carries the API's figure in `data-value`. */
export function ReportTable<Row>({ columns, rows }: { columns: Column<Row>[]; rows: Row[] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} class={column.numeric ? 'num' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => {
                const value = column.value(row);
                return (
                  <td
                    key={column.key}
                    class={column.numeric ? 'num' : undefined}
                    data-column={column.key}
                    data-value={value ?? ''}
                  >
                    {column.format ? column.format(value) : (value ?? '–')}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
