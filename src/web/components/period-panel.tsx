import { type Column, figure, formatter, type Kind, ReportPanel, ReportTable } from './report-table.js';
import { SeriesChart } from './series-chart.js';

/** A figure of a report's rows; `chart` draws it, else it is in the table and the CSV only. */
export interface Field<Row> {
  key: keyof Row & string;
  label: string;
  kind: Kind;
  chart?: { type: 'line' | 'bar'; colour: string };
  /**
   * Whether the row has anything to divide by. The API answers 0 for a ratio over nothing
   * (docs/decisions.md, "Ratios over nothing are 0"); such a figure is shown as "–", left out
   * of the chart and empty in the CSV, so it does not read as a real 0 %.
   */
  known?: (row: Row) => boolean;
}

/** The field's figure in `row`, or null where the row has nothing to divide by. */
const figureOf = <Row,>(field: Field<Row>, row: Row): number | null =>
  field.known === undefined || field.known(row) ? (row[field.key] as number) : null;

/** The same fields, none drawn: for the table of every figure under the charts. */
export function tableOnly<Row>(fields: Field<Row>[]): Field<Row>[] {
  return fields.map(({ chart: _chart, ...field }) => field);
}

/**
 * A panel of a report with one row per period: a chart of the charted fields (which share the
 * first one's unit), the table when `table` is set, and the CSV of every field.
 */
export function PeriodPanel<Row extends { date: string }>(props: {
  title: string;
  filename: string;
  currency: string;
  rows: Row[];
  fields: Field<Row>[];
  empty: string | false;
  table?: boolean;
}) {
  const { rows, fields, currency } = props;
  const columns: Column<Row>[] = [
    { key: 'date', label: 'Period', value: (row) => row.date },
    ...fields.map((field) =>
      figure<Row>(field.key, field.label, field.kind, currency, (row) => figureOf(field, row)),
    ),
  ];
  const charted = fields.filter((field) => field.chart);
  return (
    <ReportPanel
      title={props.title}
      filename={props.filename}
      columns={columns}
      rows={rows}
      empty={props.empty}
    >
      {charted.length > 0 && (
        <SeriesChart
          dates={rows.map((row) => row.date)}
          series={charted.map((field) => ({
            name: field.label,
            type: field.chart!.type,
            colour: field.chart!.colour,
            values: rows.map((row) => figureOf(field, row)),
          }))}
          format={(value) => formatter(charted[0]!.kind, currency)(value)}
          whole={charted[0]!.kind === 'count'}
          label={`${props.title} by period`}
        />
      )}
      {props.table && <ReportTable columns={columns} rows={rows} />}
    </ReportPanel>
  );
}
