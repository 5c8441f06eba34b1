import { api } from '../api.js';
import { type Field, PeriodPanel, tableOnly } from '../components/period-panel.js';
import { ReportPage } from '../components/report-page.js';
import type { RetentionReport, RetentionRow } from '../reports.js';
import type { Route } from '../route.js';

const REVENUE: Field<RetentionRow>[] = [
  { key: 'nrr', label: 'NRR', kind: 'percent', chart: { type: 'line', colour: '#3b5bdb' } },
  { key: 'grr', label: 'GRR', kind: 'percent', chart: { type: 'line', colour: '#2f9e44' } },
];

const CHURN: Field<RetentionRow>[] = [
  {
    key: 'customer_churn_rate',
    label: 'Customer churn',
    kind: 'percent',
    chart: { type: 'line', colour: '#e03131' },
  },
  { key: 'mrr_churn_rate', label: 'MRR churn', kind: 'percent', chart: { type: 'line', colour: '#f59f00' } },
  {
    key: 'net_mrr_churn_rate',
    label: 'Net MRR churn',
    kind: 'percent',
    chart: { type: 'line', colour: '#ae3ec9' },
  },
];

// The table: every figure, none drawn.
const ALL: Field<RetentionRow>[] = [
  ...tableOnly([...REVENUE, ...CHURN]),
  { key: 'arpa', label: 'ARPA', kind: 'money' },
  { key: 'ltv', label: 'LTV', kind: 'money' },
];

/** NRR and GRR, and the churn rates, period by period; ARPA and LTV in the table below. */
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
        const empty =
          rows.every((row) => row.nrr === null) &&
          'No customer paid at the start of any period of this range, so there is nothing to retain yet.';
        const panel = { currency: report.currency, rows, empty };
        return (
          <>
            <PeriodPanel
              {...panel}
              title="Revenue retention"
              filename="revenue-retention.csv"
              fields={REVENUE}
            />
            <PeriodPanel {...panel} title="Churn rates" filename="churn-rates.csv" fields={CHURN} />
            <PeriodPanel
              {...panel}
              title={`Retention, ARPA and LTV (${report.currency.toUpperCase()})`}
              filename="retention.csv"
              fields={ALL}
              table
            />
          </>
        );
      }}
    </ReportPage>
  );
}
