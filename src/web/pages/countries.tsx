import { api } from '../api.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, ReportPanel, ReportTable } from '../components/report-table.js';
import { count, money, percent } from '../format.js';
import type { CountryFigures, MapReport } from '../reports.js';
import type { Route } from '../route.js';

interface Country extends CountryFigures {
  country: string;
}

const names = new Intl.DisplayNames(['en'], { type: 'region' });

function columns(currency: string): Column<Country>[] {
  const amount = (value: string | number | null) => money(value as number | null, currency);
  const rate = (value: string | number | null) => percent(value as number | null);
  const number = (value: string | number | null) => count(value as number | null);
  return [
    {
      key: 'country',
      label: 'Country',
      value: (row) => row.country,
      format: (value) =>
        value === '' ? 'Not set' : `${names.of(String(value).toUpperCase()) ?? value} (${value})`,
    },
    { key: 'current_mrr', label: 'MRR', value: (row) => row.current_mrr, format: amount, numeric: true },
    {
      key: 'mrr_percent',
      label: 'Share of MRR',
      value: (row) => row.mrr_percent,
      format: rate,
      numeric: true,
    },
    {
      key: 'subscribers',
      label: 'Subscribers',
      value: (row) => row.subscribers,
      format: number,
      numeric: true,
    },
    { key: 'arpa', label: 'ARPA', value: (row) => row.arpa, format: amount, numeric: true },
    {
      key: 'customer_churn_rate',
      label: 'Customer churn',
      value: (row) => row.customer_churn_rate,
      format: rate,
      numeric: true,
    },
    { key: 'ltv', label: 'LTV', value: (row) => row.ltv, format: amount, numeric: true },
    { key: 'leads', label: 'Leads', value: (row) => row.leads, format: number, numeric: true },
    { key: 'new_trials', label: 'Trials', value: (row) => row.new_trials, format: number, numeric: true },
    {
      key: 'payment_failure_rate',
      label: 'Payment failures',
      value: (row) => row.payment_failure_rate,
      format: rate,
      numeric: true,
    },
  ];
}

/**
 * The figures of `/reports/map` by country, largest MRR first, as a table: a drawn world map
 * would need a map of the world shipped with the app.
 */
export function Countries({ route }: { route: Route }) {
  return (
    <ReportPage
      title="Countries"
      route={route}
      what="figures by country"
      load={(params) => api.get<MapReport>('/reports/map', params)}
    >
      {(report) => {
        const { list, unknown } = report.result;
        const rows: Country[] = [
          ...Object.entries(list)
            .map(([country, figures]) => ({ country, ...figures }))
            .sort((a, b) => b.current_mrr - a.current_mrr),
          ...(unknown ? [{ country: '', ...unknown }] : []),
        ];
        const table = columns(report.currency);
        return (
          <ReportPanel
            title={`By country (${report.currency.toUpperCase()})`}
            filename="countries.csv"
            columns={table}
            rows={rows}
            empty={rows.length === 0 && 'No customer in this period.'}
          >
            <ReportTable columns={table} rows={rows} />
          </ReportPanel>
        );
      }}
    </ReportPage>
  );
}
