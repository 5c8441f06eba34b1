import {
  CURRENCIES,
  type DashboardQuery,
  dashboardParams,
  INTERVALS,
  type Period,
  PERIODS,
  periodRange,
} from '../dashboard-query.js';
import { navigate } from '../route.js';

/**
 * Period, interval and currency of a report page, kept in the URL: a change navigates, so the
 * view can be bookmarked and the back button undoes it. `extra` are the page's own parameters,
 * kept as they are, except the page number, which starts again. A page as of today keeps the
 * period in the URL for the next page but offers currency only.
 */
export function FilterBar(props: {
  path: string;
  query: DashboardQuery;
  today: Date;
  extra?: Record<string, string | undefined>;
  /** The page's figures are as of today: no period or interval to pick. */
  asOfToday?: boolean;
}) {
  const { query, today } = props;
  const change = (next: Partial<DashboardQuery>) =>
    navigate(props.path, { ...props.extra, ...dashboardParams({ ...query, ...next }), page: undefined });
  const range = periodRange(query, today);
  return (
    <form class="filters" onSubmit={(event) => event.preventDefault()}>
      {!props.asOfToday && (
        <>
          <label>
            Period
            <select
              name="period"
              value={query.period}
              onChange={(event) => {
                const period = event.currentTarget.value as Period;
                change(
                  period === 'custom' ? { period, ...range } : { period, from: undefined, to: undefined },
                );
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
        </>
      )}
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
