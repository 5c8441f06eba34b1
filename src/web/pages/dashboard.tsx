import { api } from '../api.js';
import { MrrChart } from '../components/mrr-chart.js';
import { SummaryCards, summaryCards } from '../components/summary-cards.js';
import { downloadCsv } from '../csv.js';
import { ReportPage } from '../components/report-page.js';
import { MOVEMENTS, type MrrReport, type RetentionReport } from '../reports.js';
import type { Route } from '../route.js';

export function Dashboard({ route }: { route: Route }) {
  return (
    <ReportPage
      title="Dashboard"
      route={route}
      what="figures"
      load={(params) =>
        Promise.all([
          api.get<MrrReport>('/reports/mrr', params),
          api.get<RetentionReport>('/reports/retention', params),
        ])
      }
    >
      {([mrr, retention], query) => <Figures mrr={mrr} retention={retention} interval={query.interval} />}
    </ReportPage>
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
