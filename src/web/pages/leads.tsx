import { api } from '../api.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, ReportPanel, ReportTable } from '../components/report-table.js';
import { SeriesChart } from '../components/series-chart.js';
import { type Card, SummaryCards } from '../components/summary-cards.js';
import { count, percent, signed } from '../format.js';
import type { LeadsReport, LeadsRow, LeadsSummary } from '../reports.js';
import type { Route } from '../route.js';

const COUNTS = [
  ['leads', 'Leads', '#91a7ff'],
  ['trials', 'Trials', '#3b5bdb'],
  ['leads_converted', 'Leads converted', '#74b816'],
  ['trials_converted', 'Trials converted', '#2f9e44'],
] as const;

const RATES = [
  ['lead_to_trial_rate', 'Lead to trial'],
  ['trial_to_paid_rate', 'Trial to paid'],
  ['lead_to_paid_rate', 'Lead to paid'],
] as const;

const DAYS = [
  ['lead_to_paid_days', 'Days lead to paid'],
  ['trial_to_paid_days', 'Days trial to paid'],
] as const;

const number = (value: string | number | null) => count(value as number | null);

const COLUMNS: Column<LeadsRow>[] = [
  { key: 'date', label: 'Period', value: (row) => row.date },
  ...COUNTS.map(([field, label]) => ({
    key: field,
    label,
    value: (row: LeadsRow) => row[field],
    format: number,
    numeric: true,
  })),
  ...RATES.map(([field, label]) => ({
    key: field,
    label,
    value: (row: LeadsRow) => row[field],
    format: (value: string | number | null) => percent(value as number | null),
    numeric: true,
  })),
  ...DAYS.map(([field, label]) => ({
    key: field,
    label,
    value: (row: LeadsRow) => row[field],
    format: number,
    numeric: true,
  })),
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
            <ReportPanel
              title="Funnel by period"
              filename="leads-funnel.csv"
              columns={COLUMNS.filter((column) =>
                ['date', ...COUNTS.map(([key]) => key)].includes(column.key),
              )}
              rows={rows}
              empty={empty}
            >
              <SeriesChart
                dates={rows.map((row) => row.date)}
                series={COUNTS.map(([field, name, colour]) => ({
                  name,
                  colour,
                  type: 'bar',
                  values: rows.map((row) => row[field]),
                }))}
                format={(value) => count(value)}
                whole
                label="Leads, trials and conversions by period"
              />
            </ReportPanel>
            <ReportPanel title="Conversion" filename="leads.csv" columns={COLUMNS} rows={rows} empty={empty}>
              <ReportTable columns={COLUMNS} rows={rows} />
            </ReportPanel>
          </>
        );
      }}
    </ReportPage>
  );
}
