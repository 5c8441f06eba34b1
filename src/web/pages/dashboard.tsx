import { api } from '../api.js';
import { MrrChart, type PreviousPeriod } from '../components/mrr-chart.js';
import { ReportPage } from '../components/report-page.js';
import { SummaryCards, summaryCards } from '../components/summary-cards.js';
import { downloadCsv } from '../csv.js';
import { dashboardParams, parseDashboardQuery, previousRange } from '../dashboard-query.js';
import { MOVEMENTS, type MrrReport, type MrrRow, type RetentionReport } from '../reports.js';
import { navigate, type Route } from '../route.js';

interface Figures {
  mrr: MrrReport;
  retention: RetentionReport;
  /** The same reports over the equally long range just before, when the URL asks for it. */
  previous?: { from: string; to: string; mrr: MrrReport; retention: RetentionReport };
}

const reports = (params: Record<string, string | undefined>) =>
  Promise.all([
    api.get<MrrReport>('/reports/mrr', params),
    api.get<RetentionReport>('/reports/retention', params),
  ]);

export function Dashboard({ route }: { route: Route }) {
  const query = parseDashboardQuery(route.params);
  const toggle = (compare: boolean) =>
    navigate(route.path === '/' ? '/dashboard' : route.path, dashboardParams({ ...query, compare }));
  return (
    <ReportPage
      title="Dashboard"
      route={route}
      what="figures"
      loadKey={query.compare ? 'compare' : ''}
      controls={
        <label class="compare-toggle">
          <input
            type="checkbox"
            name="compare"
            checked={query.compare === true}
            onChange={(e) => toggle(e.currentTarget.checked)}
          />
          Compare with the previous period
        </label>
      }
      load={async (params): Promise<Figures> => {
        if (!query.compare) {
          const [mrr, retention] = await reports(params);
          return { mrr, retention };
        }
        // The same endpoints with the range shifted back by its own length.
        const { from, to } = previousRange(query, new Date());
        const date = `${from.replaceAll('-', '')}-${to.replaceAll('-', '')}`;
        const [[mrr, retention], [mrrBefore, retentionBefore]] = await Promise.all([
          reports(params),
          reports({ ...params, date }),
        ]);
        return { mrr, retention, previous: { from, to, mrr: mrrBefore, retention: retentionBefore } };
      }}
    >
      {(figures, shown) => <Figures figures={figures} interval={shown.interval} />}
    </ReportPage>
  );
}

const previousCells = (row: MrrRow | undefined) => [row?.date ?? null, row?.total_mrr ?? null];

function Figures({ figures, interval }: { figures: Figures; interval: string }) {
  const { mrr, retention, previous } = figures;
  const rows = mrr.result;
  const empty = rows.every((row) => row.total_mrr === 0 && MOVEMENTS.every((kind) => row[kind] === 0));
  const before: PreviousPeriod | undefined = previous && {
    from: previous.from,
    to: previous.to,
    rows: previous.mrr.result,
  };
  const download = () =>
    downloadCsv(
      'mrr.csv',
      [
        'date',
        'end_date',
        'total_mrr',
        ...MOVEMENTS,
        'total_customers',
        'currency',
        ...(before ? ['previous_date', 'previous_total_mrr'] : []),
      ],
      rows.map((row, index) => [
        row.date,
        row.end_date,
        row.total_mrr,
        ...MOVEMENTS.map((kind) => row[kind]),
        row.total_customers,
        mrr.currency,
        ...(before ? previousCells(before.rows[index + before.rows.length - rows.length]) : []),
      ]),
    );
  const cards = summaryCards(
    rows,
    retention.result,
    mrr.currency,
    previous && { mrr: previous.mrr.result, retention: previous.retention.result },
  );
  return (
    <>
      <SummaryCards cards={cards} interval={previous ? 'period' : interval} />
      <section
        class="panel"
        data-panel="mrr"
        data-previous={before ? JSON.stringify(before.rows.map((row) => row.total_mrr)) : undefined}
      >
        <header class="panel-head">
          <h2>MRR and movements ({mrr.currency.toUpperCase()})</h2>
          <button type="button" class="secondary" onClick={download} disabled={rows.length === 0}>
            Download CSV
          </button>
        </header>
        {before && (
          <p class="hint">
            Dashed: MRR from {before.from} to {before.to}, the same length just before.
          </p>
        )}
        {empty ? (
          <p class="empty">
            No MRR in this period yet. Send invoices through the API or import a file (see the README), then
            come back here.
          </p>
        ) : (
          <MrrChart rows={rows} currency={mrr.currency} previous={before} />
        )}
      </section>
    </>
  );
}
