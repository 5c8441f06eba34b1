import { api } from '../api.js';
import { MrrChart } from '../components/mrr-chart.js';
import { SummaryCards, summaryCards } from '../components/summary-cards.js';
import { downloadCsv } from '../csv.js';
import {
  CURRENCIES,
  type DashboardQuery,
  dashboardParams,
  INTERVALS,
  parseDashboardQuery,
  type Period,
  PERIODS,
  periodRange,
  reportQuery,
} from '../dashboard-query.js';
import { MOVEMENTS, type MrrReport, type RetentionReport } from '../reports.js';
import { navigate, type Route } from '../route.js';
import { useLoad } from '../use-load.js';

function FilterBar({ query, today }: { query: DashboardQuery; today: Date }) {
  const change = (next: Partial<DashboardQuery>) =>
    navigate('/dashboard', dashboardParams({ ...query, ...next }));
  const range = periodRange(query, today);
  return (
    <form class="filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Period
        <select
          name="period"
          value={query.period}
          onChange={(event) => {
            const period = event.currentTarget.value as Period;
            change(period === 'custom' ? { period, ...range } : { period, from: undefined, to: undefined });
          }}
        >
          {Object.entries(PERIODS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {query.period === 'custom' && (
        <>
          <label>
            From
            <input
              type="date"
              name="from"
              value={range.from}
              max={range.to}
              onChange={(e) => e.currentTarget.value && change({ from: e.currentTarget.value })}
            />
          </label>
          <label>
            To
            <input
              type="date"
              name="to"
              value={range.to}
              min={range.from}
              onChange={(e) => e.currentTarget.value && change({ to: e.currentTarget.value })}
            />
          </label>
        </>
      )}
      <label>
        Interval
        <select
          name="interval"
          value={query.interval}
          onChange={(e) => change({ interval: e.currentTarget.value as DashboardQuery['interval'] })}
        >
          {INTERVALS.map((interval) => (
            <option key={interval} value={interval}>
              {interval[0]!.toUpperCase() + interval.slice(1)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Currency
        <select
          name="currency"
          value={query.currency ?? ''}
          onChange={(e) => change({ currency: e.currentTarget.value || undefined })}
        >
          <option value="">Account default</option>
          {CURRENCIES.map((currency) => (
            <option key={currency} value={currency}>
              {currency.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

export function Dashboard({ route }: { route: Route }) {
  const query = parseDashboardQuery(route.params);
  const today = new Date();
  const params = reportQuery(query, today);
  const [report] = useLoad(
    () =>
      Promise.all([
        api.get<MrrReport>('/reports/mrr', params),
        api.get<RetentionReport>('/reports/retention', params),
      ]),
    JSON.stringify(params),
  );

  return (
    <main>
      <h1>Dashboard</h1>
      <FilterBar query={query} today={today} />
      {report.state === 'loading' && <p class="status">Loading figures…</p>}
      {report.state === 'error' && (
        <p class="error" role="alert">
          The figures could not be loaded: {report.message}
        </p>
      )}
      {report.state === 'done' && (
        <Figures mrr={report.value[0]} retention={report.value[1]} interval={query.interval} />
      )}
    </main>
  );
}

function Figures({
  mrr,
  retention,
  interval,
}: {
  mrr: MrrReport;
  retention: RetentionReport;
  interval: string;
}) {
  const rows = mrr.result;
  const empty = rows.every((row) => row.total_mrr === 0 && MOVEMENTS.every((kind) => row[kind] === 0));
  const download = () =>
    downloadCsv(
      'mrr.csv',
      ['date', 'end_date', 'total_mrr', ...MOVEMENTS, 'total_customers', 'currency'],
      rows.map((row) => [
        row.date,
        row.end_date,
        row.total_mrr,
        ...MOVEMENTS.map((kind) => row[kind]),
        row.total_customers,
        mrr.currency,
      ]),
    );
  return (
    <>
      <SummaryCards cards={summaryCards(rows, retention.result, mrr.currency)} interval={interval} />
      <section class="panel">
        <header class="panel-head">
          <h2>MRR and movements ({mrr.currency.toUpperCase()})</h2>
          <button type="button" class="secondary" onClick={download} disabled={rows.length === 0}>
            Download CSV
          </button>
        </header>
        {empty ? (
          <p class="empty">
            No MRR in this period yet. Send invoices through the API or import a file (see the README), then
            come back here.
          </p>
        ) : (
          <MrrChart rows={rows} currency={mrr.currency} />
        )}
      </section>
    </>
  );
}
