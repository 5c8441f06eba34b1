import { api } from '../api.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, ReportPanel, ReportTable } from '../components/report-table.js';
import { SeriesChart } from '../components/series-chart.js';
import { money, percent } from '../format.js';
import type { RetentionReport, RetentionRow } from '../reports.js';
import type { Route } from '../route.js';

const RATES = [
  ['nrr', 'NRR', '#3b5bdb'],
  ['grr', 'GRR', '#2f9e44'],
  ['customer_churn_rate', 'Customer churn', '#e03131'],
  ['mrr_churn_rate', 'MRR churn', '#f59f00'],
  ['net_mrr_churn_rate', 'Net MRR churn', '#ae3ec9'],
] as const;

function columns(currency: string): Column<RetentionRow>[] {
  const amount = (value: string | number | null) => money(value as number | null, currency);
  return [
    { key: 'date', label: 'Period end', value: (row) => row.date },
    ...RATES.map(([field, label]) => ({
      key: field,
      label,
      value: (row: RetentionRow) => row[field],
      format: (value: string | number | null) => percent(value as number | null),
      numeric: true,
    })),
    { key: 'arpa', label: 'ARPA', value: (row) => row.arpa, format: amount, numeric: true },
    { key: 'ltv', label: 'LTV', value: (row) => row.ltv, format: amount, numeric: true },
  ];
}

/** A chart's CSV holds the columns it draws. */
const only = <Row,>(table: Column<Row>[], keys: string[]) =>
  table.filter((column) => keys.includes(column.key));

const asPercent = (value: number) => `${value}%`;

/** NRR and GRR, and the churn rates, period by period; LTV and ARPA in the table below. */
export function Retention({ route }: { route: Route }) {
  return (
    <ReportPage
      title="Retention"
      route={route}
      what="retention figures"
      load={(params) => api.get<RetentionReport>('/reports/retention', params)}
    >
      {(report) => {
        const rows = report.result;
        const table = columns(report.currency);
        const dates = rows.map((row) => row.date);
        const series = (fields: readonly (typeof RATES)[number][]) =>
          fields.map(([field, name, colour]) => ({
            name,
            colour,
            type: 'line' as const,
            values: rows.map((row) => row[field]),
          }));
        const empty =
          rows.every((row) => row.nrr === null) &&
          'No customer paid at the start of any period of this range, so there is nothing to retain yet.';
        return (
          <>
            <ReportPanel
              title="Revenue retention"
              filename="revenue-retention.csv"
              columns={only(table, ['date', 'nrr', 'grr'])}
              rows={rows}
              empty={empty}
            >
              <SeriesChart
                dates={dates}
                series={series(RATES.slice(0, 2))}
                format={asPercent}
                label="NRR and GRR by period"
              />
            </ReportPanel>
            <ReportPanel
              title="Churn rates"
              filename="churn-rates.csv"
              columns={table}
              rows={rows}
              empty={empty}
            >
              <SeriesChart
                dates={dates}
                series={series(RATES.slice(2))}
                format={asPercent}
                label="Churn rates by period"
              />
            </ReportPanel>
            <ReportPanel
              title={`Retention, ARPA and LTV (${report.currency.toUpperCase()})`}
              filename="retention.csv"
              columns={table}
              rows={rows}
              empty={empty}
            >
              <ReportTable columns={table} rows={rows} />
            </ReportPanel>
          </>
        );
      }}
    </ReportPage>
  );
}
