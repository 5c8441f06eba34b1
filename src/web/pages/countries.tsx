import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'preact/hooks';
import { api } from '../api.js';
import { EChart } from '../components/echart.js';
import { ReportPage } from '../components/report-page.js';
import { type Column, figure, type Kind, ReportPanel, ReportTable } from '../components/report-table.js';
import { count, money } from '../format.js';
import type { CountryFigures, MapReport } from '../reports.js';
import { navigate, type Route } from '../route.js';
import { useLoad } from '../use-load.js';

interface Country extends CountryFigures {
  country: string;
}

const names = new Intl.DisplayNames(['en'], { type: 'region' });
/**
 * A country's name in English. Regions the map draws without an ISO code (Kosovo, Somaliland,
 * ...) keep the map's own name: DisplayNames throws on anything but a code.
 */
const countryName = (code: string) =>
  /^[A-Za-z]{2}$/.test(code) ? (names.of(code.toUpperCase()) ?? code) : code;

/** What the map colours countries by: a figure of `/reports/map`. */
const COLOURED_BY = {
  mrr: { label: 'MRR', field: 'current_mrr' },
  subscribers: { label: 'Subscribers', field: 'subscribers' },
} as const;
type ColouredBy = keyof typeof COLOURED_BY;

function columns(currency: string): Column<Country>[] {
  // `known` says whether the row has anything to divide by: the API answers 0 for a ratio over
  // nothing, shown here as "–".
  const of = (key: keyof CountryFigures, label: string, kind: Kind, known = (_row: Country) => true) =>
    figure<Country>(key, label, kind, currency, (row) => (known(row) ? row[key] : null));
  return [
    {
      key: 'country',
      label: 'Country',
      value: (row) => row.country,
      format: (value) => (value === '' ? 'Not set' : `${countryName(String(value))} (${value})`),
    },
    of('current_mrr', 'MRR', 'money'),
    of('mrr_percent', 'Share of MRR', 'percent'),
    of('subscribers', 'Subscribers', 'count'),
    of('arpa', 'ARPA', 'money', (row) => row.subscribers > 0),
    of('customer_churn_rate', 'Customer churn', 'percent'),
    of('ltv', 'LTV', 'money', (row) => row.subscribers > 0 && row.customer_churn_rate > 0),
    of('leads', 'Leads', 'count'),
    of('new_trials', 'Trials', 'count'),
    of('payment_failure_rate', 'Payment failures', 'percent'),
  ];
}

function mapOption(world: string, countries: Country[], by: ColouredBy, currency: string): EChartsCoreOption {
  const { label, field } = COLOURED_BY[by];
  const show = (value: number) => (by === 'mrr' ? money(value, currency) : count(value));
  // The API keys countries in lower case, the map in upper case.
  const data = countries.map((row) => ({ name: row.country.toUpperCase(), value: row[field] }));
  return {
    tooltip: {
      trigger: 'item',
      formatter: (item: { name: string; value: unknown }) =>
        `${countryName(item.name)}: ${typeof item.value === 'number' ? show(item.value) : 'no customer'}`,
    },
    visualMap: {
      type: 'continuous',
      min: 0,
      max: Math.max(1, ...data.map((item) => item.value)),
      left: 'left',
      bottom: 0,
      orient: 'horizontal',
      text: [label, ''],
      formatter: (value: number) => show(value),
      inRange: { color: ['#dbeafe', '#1d4ed8'] },
    },
    series: [
      {
        type: 'map',
        name: label,
        map: world,
        data,
        itemStyle: { areaColor: '#eef1f5', borderColor: '#c3c9d2', borderWidth: 0.5 },
        emphasis: { label: { show: false }, itemStyle: { areaColor: '#f59e0b' } },
        select: { disabled: true },
      },
    ],
  };
}

/** The world coloured by one figure; the geometry is a chunk of its own, loaded on first use. */
function WorldMap({ countries, by, currency }: { countries: Country[]; by: ColouredBy; currency: string }) {
  const [world] = useLoad(() => import('../world-map.js').then((module) => module.worldMap()), 'world');
  const option = useMemo(
    () => (world.state === 'done' ? mapOption(world.value, countries, by, currency) : undefined),
    [world, countries, by, currency],
  );
  return (
    <section class="panel" data-panel="world-map" data-coloured-by={by}>
      <header class="panel-head">
        <h2>
          {COLOURED_BY[by].label} by country
          {by === 'mrr' ? ` (${currency.toUpperCase()})` : ''}
        </h2>
      </header>
      {world.state === 'loading' && <p class="status">Loading the map…</p>}
      {world.state === 'error' && (
        <p class="error" role="alert">
          The map could not be loaded: {world.message}
        </p>
      )}
      {option && <EChart option={option} label={`World map of ${COLOURED_BY[by].label} by country`} />}
    </section>
  );
}

/**
 * The figures of `/reports/map` by country: a world map coloured by MRR or subscribers, and
 * beside it the table of every figure, largest MRR first, with its CSV.
 */
export function Countries({ route }: { route: Route }) {
  const by: ColouredBy = route.params.get('map') === 'subscribers' ? 'subscribers' : 'mrr';
  const show = (next: string) =>
    navigate(route.path, { ...Object.fromEntries(route.params), map: next === 'mrr' ? undefined : next });
  return (
    <ReportPage
      title="Countries"
      route={route}
      what="figures by country"
      noInterval
      keep={{ map: route.params.get('map') ?? undefined }}
      // The figures are over the whole range: the map takes no interval.
      load={(params) => api.get<MapReport>('/reports/map', { ...params, interval: undefined })}
      controls={
        <label class="filters">
          Colour the map by
          <select name="map" value={by} onChange={(event) => show(event.currentTarget.value)}>
            {Object.entries(COLOURED_BY).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      }
    >
      {(report) => {
        const { list, unknown } = report.result;
        const countries: Country[] = Object.entries(list)
          .map(([country, figures]) => ({ country, ...figures }))
          .sort((a, b) => b.current_mrr - a.current_mrr);
        const rows: Country[] = [...countries, ...(unknown ? [{ country: '', ...unknown }] : [])];
        const table = columns(report.currency);
        return (
          <div class="map-grid">
            <WorldMap countries={countries} by={by} currency={report.currency} />
            <ReportPanel
              title={`By country (${report.currency.toUpperCase()})`}
              filename="countries.csv"
              columns={table}
              rows={rows}
              empty={rows.length === 0 && 'No customer in this period.'}
            >
              <ReportTable columns={table} rows={rows} />
            </ReportPanel>
          </div>
        );
      }}
    </ReportPage>
  );
}
