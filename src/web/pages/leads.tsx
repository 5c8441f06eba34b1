import { api } from '../api.js';
import { ReportPage } from '../components/report-page.js';
import { type Field, PeriodPanel, tableOnly } from '../components/period-panel.js';
import { type Card, SummaryCards } from '../components/summary-cards.js';
import { count, signed } from '../format.js';
import type { LeadsReport, LeadsRow, LeadsSummary } from '../reports.js';
import type { Route } from '../route.js';

const COUNTS: Field<LeadsRow>[] = [
  { key: 'leads', label: 'Leads', kind: 'count', chart: { type: 'bar', colour: '#91a7ff' } },
  { key: 'trials', label: 'Trials', kind: 'count', chart: { type: 'bar', colour: '#3b5bdb' } },
  {
    key: 'leads_converted',
    label: 'Leads converted',
    kind: 'count',
    chart: { type: 'bar', colour: '#74b816' },
  },
  {
    key: 'trials_converted',
    label: 'Trials converted',
    kind: 'count',
    chart: { type: 'bar', colour: '#2f9e44' },
  },
];

// The table: every figure, none drawn.
const ALL: Field<LeadsRow>[] = [
  ...tableOnly(COUNTS),
  // Each is 0 over nothing in the API; the count it divides by says when to show "–".
  { key: 'lead_to_trial_rate', label: 'Lead to trial', kind: 'percent', known: (row) => row.leads > 0 },
  { key: 'trial_to_paid_rate', label: 'Trial to paid', kind: 'percent', known: (row) => row.trials > 0 },
  { key: 'lead_to_paid_rate', label: 'Lead to paid', kind: 'percent', known: (row) => row.leads > 0 },
  {
    key: 'lead_to_paid_days',
    label: 'Days lead to paid',
    kind: 'count',
    known: (row) => row.leads_converted > 0,
  },
  {
    key: 'trial_to_paid_days',
    label: 'Days trial to paid',
    kind: 'count',
    known: (row) => row.trials_converted > 0,
  },
];

const WINDOWS = [30, 365] as const;

/** New leads and trials in the last 30 and 365 days of the range, each against the days before. */
function summaryCards(summary: LeadsSummary['summary']): Card[] {
  return (['leads', 'trials'] as const).flatMap((kind) =>
    WINDOWS.map((days) => {
      const value = summary[`${kind}_${days}`] ?? null;
      const change = summary[`${kind}_percentage_change_${days}`] ?? null;
      return {
        metric: `${kind}-${days}`,
        label: `${kind === 'leads' ? 'Leads' : 'Trials'}, last ${days} days`,
        value,
        text: count(value),
        change: change === null ? null : signed(change, '%'),
        good: change === null || change === 0 ? null : change > 0,
      };
    }),
  );
}

/** Leads, trials and their conversions to paying customers, period by period. */
export function Leads({ route }: { route: Route }) {
  return (
    <ReportPage
      title="Leads and trials"
      route={route}
      what="leads and trials"
      load={(params) =>
        Promise.all([
          api.get<LeadsReport>('/reports/leads', params),
          api.get<LeadsSummary>('/reports/leads-summary', params),
        ])
      }
    >
      {([leads, summary]) => {
        const rows = leads.result;
        const empty =
          rows.every((row) => row.leads === 0 && row.trials === 0) &&
          'No leads or trials in this period. A customer is a lead from its created date and a trial from its trial start.';
        return (
          <>
            <SummaryCards cards={summaryCards(summary.summary)} interval="window" />
            <PeriodPanel
              title="Funnel"
              filename="leads-funnel.csv"
              currency={leads.currency}
              rows={rows}
              fields={COUNTS}
              empty={empty}
            />
            <PeriodPanel
              title="Conversion"
              filename="leads.csv"
              currency={leads.currency}
              rows={rows}
              fields={ALL}
              empty={empty}
              table
            />
          </>
        );
      }}
    </ReportPage>
  );
}
