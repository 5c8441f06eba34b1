import { api } from '../api.js';
import { MrrChart } from '../components/mrr-chart.js';
import { SummaryCards, summaryCards } from '../components/summary-cards.js';
import { downloadCsv } from '../csv.js';
import { FilterBar } from '../components/filter-bar.js';
import { parseDashboardQuery, reportQuery } from '../dashboard-query.js';
import { MOVEMENTS, type MrrReport, type RetentionReport } from '../reports.js';
import type { Route } from '../route.js';
import { useLoad } from '../use-load.js';

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
      <FilterBar path="/dashboard" query={query} today={today} />
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
