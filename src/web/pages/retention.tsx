import { api } from '../api.js';
import { type Field, PeriodPanel, tableOnly } from '../components/period-panel.js';
import { ReportPage } from '../components/report-page.js';
import type { RetentionReport, RetentionRow } from '../reports.js';
import type { Route } from '../route.js';

/** A rate of a period without a cohort is 0 over nothing: shown as "–", not drawn. */
const withCohort = (row: RetentionRow) => row.cohort_customers > 0;

const REVENUE: Field<RetentionRow>[] = [
  {
    key: 'nrr',
    label: 'NRR',
    kind: 'percent',
    chart: { type: 'line', colour: '#3b5bdb' },
    known: withCohort,
  },
  {
    key: 'grr',
    label: 'GRR',
    kind: 'percent',
    chart: { type: 'line', colour: '#2f9e44' },
    known: withCohort,
  },
];

const CHURN: Field<RetentionRow>[] = [
  {
    key: 'customer_churn_rate',
    label: 'Customer churn',
    kind: 'percent',
    chart: { type: 'line', colour: '#e03131' },
    known: withCohort,
  },
  {
    key: 'mrr_churn_rate',
    label: 'MRR churn',
    kind: 'percent',
    chart: { type: 'line', colour: '#f59f00' },
    known: withCohort,
  },
  {
    key: 'net_mrr_churn_rate',
    label: 'Net MRR churn',
    kind: 'percent',
    chart: { type: 'line', colour: '#ae3ec9' },
    known: withCohort,
  },
];

// The table: every figure, none drawn. ARPA needs a retained customer, LTV churn as well.
const ALL: Field<RetentionRow>[] = [
  ...tableOnly([...REVENUE, ...CHURN]),
  { key: 'arpa', label: 'ARPA', kind: 'money', known: (row) => row.retained_customers > 0 },
  {
    key: 'ltv',
    label: 'LTV',
    kind: 'money',
    known: (row) => row.retained_customers > 0 && row.customer_churn_avg > 0,
  },
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
          !rows.some(withCohort) &&
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
