import { api } from '../api.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, figure, type Kind, ReportPanel, ReportTable } from '../components/report-table.js';
import type { CountryFigures, MapReport } from '../reports.js';
import type { Route } from '../route.js';

interface Country extends CountryFigures {
  country: string;
}

const names = new Intl.DisplayNames(['en'], { type: 'region' });

function columns(currency: string): Column<Country>[] {
  const of = (key: keyof CountryFigures, label: string, kind: Kind) =>
    figure<Country>(key, label, kind, currency, (row) => row[key]);
  return [
    {
      key: 'country',
      label: 'Country',
      value: (row) => row.country,
      format: (value) =>
        value === '' ? 'Not set' : `${names.of(String(value).toUpperCase()) ?? value} (${value})`,
    },
    of('current_mrr', 'MRR', 'money'),
    of('mrr_percent', 'Share of MRR', 'percent'),
    of('subscribers', 'Subscribers', 'count'),
    of('arpa', 'ARPA', 'money'),
    of('customer_churn_rate', 'Customer churn', 'percent'),
    of('ltv', 'LTV', 'money'),
    of('leads', 'Leads', 'count'),
    of('new_trials', 'Trials', 'count'),
    of('payment_failure_rate', 'Payment failures', 'percent'),
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
      noInterval
      // The figures are over the whole range: the map takes no interval.
      load={(params) => api.get<MapReport>('/reports/map', { ...params, interval: undefined })}
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
