import { api } from '../api.js';
import { type Field, PeriodPanel } from '../components/period-panel.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, figure, ReportPanel, ReportTable } from '../components/report-table.js';
import type { CmrrSummary, ScheduledRow, Series } from '../reports.js';
import { withoutRange } from '../dashboard-query.js';
import type { Route } from '../route.js';

const SCHEDULED: Field<ScheduledRow>[] = [
  { key: 'churn', label: 'Churn', kind: 'money', chart: { type: 'bar', colour: '#e03131' } },
  { key: 'contraction', label: 'Contraction', kind: 'money', chart: { type: 'bar', colour: '#f59f00' } },
  { key: 'churn_customers', label: 'Customers churning', kind: 'count' },
  { key: 'contraction_customers', label: 'Customers contracting', kind: 'count' },
  { key: 'total_mrr', label: 'MRR', kind: 'money' },
];

const HORIZONS = [
  ['cmrr_current', 'Today'],
  ['cmrr_30', 'In 30 days'],
  ['cmrr_60', 'In 60 days'],
  ['cmrr_180', 'In 180 days'],
  ['cmrr_365', 'In 365 days'],
] as const;

interface Committed {
  key: string;
  when: string;
  cmrr: number;
}

/** Committed MRR ahead, and the churn and contraction already scheduled after today. */
export function Scheduled({ route }: { route: Route }) {
  return (
    <ReportPage
      title="Scheduled churn and committed MRR"
      route={route}
      what="scheduled movements"
      asOfToday
      load={(params) =>
        Promise.all([
          // Without a range: the periods from tomorrow, a year ahead.
          api.get<Series<ScheduledRow>>('/reports/churn-scheduled', withoutRange(params)),
          api.get<CmrrSummary>('/reports/cmrr-summary', withoutRange(params)),
        ])
      }
    >
      {([scheduled, cmrr]) => {
        const committed: Committed[] = HORIZONS.map(([key, when]) => ({
          key,
          when,
          cmrr: cmrr.summary[key],
        }));
        const columns: Column<Committed>[] = [
          { key: 'when', label: 'When', value: (row) => row.when },
          figure('cmrr', 'Committed MRR', 'money', cmrr.currency, (row) => row.cmrr),
        ];
        return (
          <>
            <ReportPanel
              title={`Committed MRR (${cmrr.currency.toUpperCase()})`}
              filename="cmrr.csv"
              columns={columns}
              rows={committed}
              empty={false}
            >
              <ReportTable columns={columns} rows={committed} />
            </ReportPanel>
            <PeriodPanel
              title="Scheduled churn and contraction"
              filename="scheduled-churn.csv"
              currency={scheduled.currency}
              rows={scheduled.result}
              fields={SCHEDULED}
              empty={
                scheduled.result.every((row) => row.churn === 0 && row.contraction === 0) &&
                'No cancellation or downgrade is scheduled after today.'
              }
              table
            />
          </>
        );
      }}
    </ReportPage>
  );
}
