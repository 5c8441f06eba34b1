import type { ComponentChildren } from 'preact';
import { type DashboardQuery, parseDashboardQuery, reportQuery } from '../dashboard-query.js';
import type { Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { loadCharts } from './echart.js';
import { FilterBar } from './filter-bar.js';

export type ReportParams = Record<string, string | undefined>;

/**
 * A report page: its title, the shared filter bar (period, interval, currency and the report
 * filters, all in the URL and all in `params`), and the figures once every endpoint it
 * reads has answered, else the loading state or the service's error in words. `keep` are the
 * page's own URL parameters (how it shows the figures, not which), kept when a filter changes;
 * `controls` the inputs that change them.
 */
export function ReportPage<T>(props: {
  title: string;
  route: Route;
  /** What the page shows, for "Loading cohorts…" and "The cohorts could not be loaded". */
  what: string;
  load: (params: ReportParams) => Promise<T>;
  keep?: ReportParams;
  controls?: ComponentChildren;
  /** The figures are as of today: the filter bar offers no period. */
  asOfToday?: boolean;
  /** What else `load` depends on besides the report parameters, e.g. a comparison asked for. */
  loadKey?: string;
  /** The figures are over the whole range, not by period: the filter bar offers no interval. */
  noInterval?: boolean;
  children: (value: T, query: DashboardQuery) => ComponentChildren;
}) {
  const query = parseDashboardQuery(props.route.params);
  const today = new Date();
  const params = reportQuery(query, today);
  const [report] = useLoad(
    () => {
      const loading = props.load(params);
      // Sent first: the charts' code then arrives while the server computes the figures.
      void loadCharts().catch(() => undefined);
      return loading;
    },
    JSON.stringify([params, props.loadKey]),
  );
  return (
    <main>
      <h1>{props.title}</h1>
      <FilterBar
        path={props.route.path}
        query={query}
        today={today}
        extra={props.keep}
        asOfToday={props.asOfToday}
        noInterval={props.noInterval}
      />
      {props.controls}
      {report.state === 'loading' && <p class="status">Loading {props.what}…</p>}
      {report.state === 'error' && (
        <p class="error" role="alert">
          The {props.what} could not be loaded: {report.message}
        </p>
      )}
      {report.state === 'done' && props.children(report.value, query)}
    </main>
  );
}
