/** The dashboard's filters, exactly as the URL holds them, so a view can be bookmarked and shared. */
export interface DashboardQuery {
  period: Period;
  /** `YYYY-MM-DD`, with period `custom` only. */
  from?: string;
  to?: string;
  interval: Interval;
  /** Lower-case ISO 4217; absent: the account's base currency. */
  currency?: string;
}

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
  return {
    period: custom ? 'custom' : period in PERIODS && period !== 'custom' ? (period as Period) : '12m',
    ...(custom ? { from, to } : {}),
    interval: (INTERVALS as readonly string[]).includes(interval) ? (interval as Interval) : 'month',
    ...(/^[a-z]{3}$/.test(currency) ? { currency } : {}),
  };
}

export function dashboardParams(query: DashboardQuery): Record<string, string | undefined> {
  return {
    period: query.period,
    from: query.from,
    to: query.to,
    interval: query.interval,
    currency: query.currency,
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

/** The API's parameters for the reports of this view: `date` as `YYYYMMDD-YYYYMMDD`. */
export function reportQuery(query: DashboardQuery, today: Date): Record<string, string | undefined> {
  const { from, to } = periodRange(query, today);
  return {
    date: `${from.replaceAll('-', '')}-${to.replaceAll('-', '')}`,
    interval: query.interval,
    baseCurrency: query.currency,
  };
}
