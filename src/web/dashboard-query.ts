/** The dashboard's filters, exactly as the URL holds them, so a view can be bookmarked and shared. */
export interface DashboardQuery {
  period: Period;
  /** `YYYY-MM-DD`, with period `custom` only. */
  from?: string;
  to?: string;
  interval: Interval;
  /** Lower-case ISO 4217; absent: the account's base currency. */
  currency?: string;
  /**
   * The report filters, by their name in the URL (see FILTERS), as the API takes them:
   * space-separated values, `custom_<key>` values separated by `~~`.
   */
  filters: Record<string, string>;
  /** The dashboard draws the equally long range just before as well. */
  compare?: boolean;
}

/**
 * The report filters the filter bar offers, URL name to API parameter. Only the customers'
 * currency is renamed: `currency` in the URL is the currency the figures are shown in
 * (the API's `baseCurrency`), as bookmarks made before the filters already say.
 */
export const FILTERS = {
  region: 'region',
  customer_currency: 'currency',
  plan: 'plan',
  billing_freq: 'billing_freq',
  segment: 'segment',
  data_source: 'data_source',
} as const;
export type FilterName = keyof typeof FILTERS;

/** `custom_<key>`: a custom variable's key, as the API's report filters take it. */
const CUSTOM = /^custom_[\w.-]{1,100}$/;

export function isFilterName(name: string): boolean {
  return name in FILTERS || CUSTOM.test(name);
}

/** Named regions the API's `region` takes besides country codes (src/engine/regions.ts). */
export const REGIONS = [
  'eu',
  'europe',
  'emea',
  'dach',
  'benelux',
  'nordics',
  'uk_ireland',
  'middle_east',
  'africa',
  'north_america',
  'latam',
  'americas',
  'apac',
  'oceania',
] as const;

export const BILLING_FREQS = ['day', 'week', 'month', 'quarter', 'year'] as const;

export const PERIODS = {
  '30d': 'Last 30 days',
  '3m': 'Last 3 months',
  '12m': 'Last 12 months',
  ytd: 'Year to date',
  '24m': 'Last 24 months',
  custom: 'Custom',
} as const;
export type Period = keyof typeof PERIODS;

export const INTERVALS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'chf', 'jpy', 'sek', 'nok', 'dkk'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseDashboardQuery(params: URLSearchParams): DashboardQuery {
  const period = params.get('period') ?? '';
  const interval = params.get('interval') ?? '';
  const currency = params.get('currency') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const custom = period === 'custom' && DAY.test(from) && DAY.test(to) && from <= to;
  const filters: Record<string, string> = {};
  for (const [name, value] of params) {
    if (isFilterName(name) && value.trim() !== '' && value.length <= 1000) filters[name] = value.trim();
  }
  return {
    period: custom ? 'custom' : period in PERIODS && period !== 'custom' ? (period as Period) : '12m',
    ...(custom ? { from, to } : {}),
    interval: (INTERVALS as readonly string[]).includes(interval) ? (interval as Interval) : 'month',
    ...(/^[a-z]{3}$/.test(currency) ? { currency } : {}),
    filters,
    ...(params.get('compare') === 'previous' ? { compare: true } : {}),
  };
}

export function dashboardParams(query: DashboardQuery): Record<string, string | undefined> {
  return {
    period: query.period,
    from: query.from,
    to: query.to,
    interval: query.interval,
    currency: query.currency,
    ...query.filters,
    compare: query.compare ? 'previous' : undefined,
  };
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function monthsBefore(today: Date, months: number): Date {
  const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - months, today.getUTCDate()));
  date.setUTCDate(date.getUTCDate() + 1);
  return date;
}

/** The first and last day of the period, `today` included. */
export function periodRange(query: DashboardQuery, today: Date): { from: string; to: string } {
  if (query.period === 'custom' && query.from && query.to) return { from: query.from, to: query.to };
  const to = isoDay(today);
  switch (query.period) {
    case '30d':
      return { from: isoDay(new Date(today.getTime() - 29 * 86_400_000)), to };
    case '3m':
      return { from: isoDay(monthsBefore(today, 3)), to };
    case 'ytd':
      return { from: `${today.getUTCFullYear()}-01-01`, to };
    case '24m':
      return { from: isoDay(monthsBefore(today, 24)), to };
    default:
      return { from: isoDay(monthsBefore(today, 12)), to };
  }
}

/** The API's report filters of this view, by the API's parameter names. */
export function filterParams(query: DashboardQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query.filters)) {
    params[name in FILTERS ? FILTERS[name as FilterName] : name] = value;
  }
  return params;
}

const compact = (day: string) => day.replaceAll('-', '');

/** The API's parameters for the reports of this view: `date` as `YYYYMMDD-YYYYMMDD`, and the filters. */
export function reportQuery(query: DashboardQuery, today: Date): Record<string, string | undefined> {
  const { from, to } = periodRange(query, today);
  return {
    date: `${compact(from)}-${compact(to)}`,
    interval: query.interval,
    baseCurrency: query.currency,
    ...filterParams(query),
  };
}

/**
 * The equally long range just before the view's, as the API's `compare=last-period` takes
 * it (src/services/reports-service.ts): the `date` of the previous period's reports.
 */
export function previousRange(query: DashboardQuery, today: Date): { from: string; to: string } {
  const { from, to } = periodRange(query, today);
  const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
  const days = (day(to) - day(from)) / 86_400_000 + 1;
  const shift = (iso: string) => isoDay(new Date(day(iso) - days * 86_400_000));
  return { from: shift(from), to: shift(to) };
}

export function previousDate(query: DashboardQuery, today: Date): string {
  const { from, to } = previousRange(query, today);
  return `${compact(from)}-${compact(to)}`;
}

/** A report's parameters without the range, for the reports as of today. */
export function withoutRange(params: Record<string, string | undefined>): Record<string, string | undefined> {
  const { date: _date, interval: _interval, ...rest } = params;
  return rest;
}
