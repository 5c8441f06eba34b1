import type { RangeQuery } from '../engine/range-query.js';
import { isBreakdown } from '../engine/breakdown.js';
import type { Filter, FilterDimension } from '../engine/customer-filter.js';
import { dayNumber } from '../engine/days.js';
import { type Interval, nextPeriodStart, type Period, periodStart } from '../engine/periods.js';
import { REGIONS } from '../engine/regions.js';
import { SPLIT_KINDS, type SplitKind } from '../engine/reports/mrr-subtypes.js';
import type { MovementKind } from '../engine/types.js';
import { MOVEMENT_KINDS } from '../engine/vocabulary.js';
import { InvalidInputError } from './errors.js';
import {
  FIRST_REPORT_YEAR,
  LAST_REPORT_YEAR,
  MAX_BREAKDOWN_ROWS,
  MAX_BREAKDOWN_VALUES,
  MAX_REPORT_PERIODS,
} from './limits.js';

export const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'quarter', 'year'];
export const BILLING_FREQS = ['day', 'week', 'month', 'quarter', 'year'] as const;
const PRICING_MODELS = ['licensed', 'metered'];

/** The parameters parseFilters reads, besides `custom_<key>`: what a saved segment may hold. */
export const FILTER_PARAMETERS = [
  'region',
  'currency',
  'billing_freq',
  'age',
  'data_source',
  'payment_method',
  'pricing_model',
  'has_discount',
  'state',
  'cancel_reason',
  'status',
  'customer',
  'industry',
  'channel',
  'size',
  'plan',
] as const;

export function isFilterParameter(name: string): boolean {
  return (FILTER_PARAMETERS as readonly string[]).includes(name) || /^custom_.+/.test(name);
}

/** The one parsed form of a report request: reports read this and nothing else. */
/** A report's range query as the request gives it: filters, not yet the customers they keep. */
export interface ReportQuery extends Omit<RangeQuery, 'customers'> {
  filters: Filter[];
}

/** What building a query needs to know beyond the request itself. */
export interface ReportQueryContext {
  today: number;
  baseCurrency: string;
  /** Lower-cases a currency the exchange rates know, or returns undefined. */
  currency(code: string): string | undefined;
  /** Upper-cases a country code, or returns undefined. */
  country(code: string): string | undefined;
  /** The plans (`data_source_id:plan_id`) of the given plan groups; throws on unknown groups. */
  plansOfGroups(groupIds: readonly string[]): Promise<string[]>;
  /** The filter parameters a saved segment stands for; throws on an unknown segment. */
  segmentFilters(segmentId: string): Promise<RawReportParams>;
  /** Days, today included, that the range covers when `date` is absent. */
  defaultRangeDays: number;
  /** Whether that default instead runs from tomorrow ahead: reports of what is scheduled. */
  defaultRangeAhead?: boolean;
  /** Whether `date` may also be one day YYYY-MM-DD, the end of a range of defaultRangeDays (cohorts). */
  endDateAlone?: boolean;
}

export type RawReportParams = Readonly<Record<string, string | undefined>>;

const RANGE = /^(\d{4})(\d{2})(\d{2})-(\d{4})(\d{2})(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const AGE = /^\d+-\d*$/;

function invalid(parameter: string, message: string): InvalidInputError {
  return new InvalidInputError(`Invalid query parameter "${parameter}": ${message}`);
}

/**
 * A day number from year, month and day digits, or undefined when no such date exists. A real
 * date outside the report years is refused: every period a report makes lies within them, so
 * no range can ask for centuries of rows or for a period after 9999.
 */
function realDay(parameter: string, year?: string, month?: string, day?: string): number | undefined {
  let number: number;
  try {
    number = dayNumber(`${year}-${month}-${day}`);
  } catch {
    return undefined;
  }
  if (Number(year) < FIRST_REPORT_YEAR || Number(year) > LAST_REPORT_YEAR) {
    throw invalid(parameter, `dates must lie in the years ${FIRST_REPORT_YEAR} to ${LAST_REPORT_YEAR}`);
  }
  return number;
}

/** A `YYYY-MM-DD` query parameter as a day number, within the report years. */
export function parseReportDay(parameter: string, raw: string): number {
  const match = DAY.exec(raw);
  const day = match ? realDay(parameter, match[1], match[2], match[3]) : undefined;
  if (day === undefined) throw invalid(parameter, 'expected a real date YYYY-MM-DD');
  return day;
}

const PERIOD_NAMES: Record<Interval, string> = {
  day: 'days',
  week: 'weeks',
  month: 'months',
  quarter: 'quarters',
  year: 'years',
};

/**
 * Refuses a range that holds more than `max` periods of `interval`; `what` names them in the
 * message. Counts no further than `max`, so the check costs little however wide the range.
 */
export function checkPeriodCount(
  range: { from: number; to: number },
  interval: Interval,
  max: number,
  what = PERIOD_NAMES[interval],
): void {
  if (periodCount(range, interval, max) > max) {
    throw invalid(
      'date',
      `a range may hold at most ${max} ${what}; choose a shorter range or a longer interval`,
    );
  }
}

/** The periods of `interval` a range touches, counted up to one past `atMost`. */
export function periodCount(range: { from: number; to: number }, interval: Interval, atMost: number): number {
  let count = 0;
  for (
    let start = periodStart(range.from, interval);
    start <= range.to && count <= atMost;
    start = nextPeriodStart(start, interval)
  ) {
    count += 1;
  }
  return count;
}

/**
 * Refuses a breakdown into more series, or more rows in all, than one answer may hold: by
 * `customer` or a custom variable, a large account has as many values as customers.
 */
export function checkBreakdownSize(
  dimension: string,
  values: number,
  range: { from: number; to: number },
  interval: Interval,
): void {
  if (values > MAX_BREAKDOWN_VALUES) {
    throw invalid(
      'breakdown',
      `"${dimension}" splits these customers into ${values} values, more than ${MAX_BREAKDOWN_VALUES}; ` +
        'filter the customers or choose another dimension',
    );
  }
  const periods = periodCount(range, interval, Math.floor(MAX_BREAKDOWN_ROWS / values));
  if (values * periods > MAX_BREAKDOWN_ROWS) {
    throw invalid(
      'breakdown',
      `"${dimension}" gives ${values} series, more than ${MAX_BREAKDOWN_ROWS} rows over this range; ` +
        'choose a shorter range, a longer interval or fewer customers',
    );
  }
}

function parseRange(raw: string | undefined, context: ReportQueryContext): [number, number] {
  if (raw === undefined || raw === '') {
    return context.defaultRangeAhead
      ? [context.today + 1, context.today + context.defaultRangeDays]
      : [context.today - context.defaultRangeDays + 1, context.today];
  }
  const end = context.endDateAlone ? DAY.exec(raw) : null;
  if (end) {
    const to = realDay('date', end[1], end[2], end[3]);
    if (to !== undefined) return [to - context.defaultRangeDays + 1, to];
  }
  const match = RANGE.exec(raw);
  const from = match ? realDay('date', match[1], match[2], match[3]) : undefined;
  const to = match ? realDay('date', match[4], match[5], match[6]) : undefined;
  if (from === undefined || to === undefined) {
    const expected = context.endDateAlone ? 'a date YYYY-MM-DD or a range' : 'a range';
    throw invalid('date', `expected ${expected} YYYYMMDD-YYYYMMDD of real dates`);
  }
  if (from > to) throw invalid('date', 'the range ends before it starts');
  return [from, to];
}

/** A true/false parameter; absent or empty is false. */
export function parseBoolean(parameter: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw invalid(parameter, 'expected true or false');
}

/** Splits a multi-value parameter into a filter: `~x` excludes x, `*` is any value, `~` alone is "not set". */
function tokensToFilter(
  dimension: FilterDimension,
  tokens: readonly string[],
  normalise: (token: string) => readonly string[],
): Filter {
  const filter = {
    dimension,
    include: [] as string[],
    exclude: [] as string[],
    anyValue: false,
    notSet: false,
  };
  for (const token of tokens) {
    if (token === '*') filter.anyValue = true;
    else if (token === '~') filter.notSet = true;
    else if (token.startsWith('~')) filter.exclude.push(...normalise(token.slice(1)));
    else filter.include.push(...normalise(token));
  }
  return filter;
}

const words = (raw: string) => raw.split(/\s+/).filter((token) => token !== '');

/**
 * The filters of a request (or of a saved segment's parameters), checked: every dimension of
 * engine/customer-filter.ts that the parameters name, in one list that reports AND together.
 */
export async function parseFilters(raw: RawReportParams, context: ReportQueryContext): Promise<Filter[]> {
  const filters: Filter[] = [];
  const add = (
    parameter: string,
    dimension: FilterDimension,
    normalise: (token: string) => readonly string[] = (token) => [token],
    split: (value: string) => string[] = words,
  ) => {
    const value = raw[parameter];
    if (value !== undefined && value.trim() !== '')
      filters.push(tokensToFilter(dimension, split(value), normalise));
  };

  add('region', 'country', (token) => {
    const region = REGIONS.get(token.toLowerCase());
    if (region) return region;
    const country = context.country(token);
    if (country === undefined)
      throw invalid('region', `"${token}" is neither a country code nor a named region`);
    return [country];
  });
  add('currency', 'currency', (token) => {
    const currency = context.currency(token);
    if (currency === undefined) throw invalid('currency', `unknown currency "${token}"`);
    return [currency];
  });
  add('billing_freq', 'billing_freq', (token) => {
    if (!(BILLING_FREQS as readonly string[]).includes(token)) {
      throw invalid('billing_freq', `expected values among ${BILLING_FREQS.join(', ')}`);
    }
    return [token];
  });
  add('age', 'age', (token) => {
    if (!AGE.test(token)) throw invalid('age', `"${token}" is not a month range like 0-6 or 12-`);
    return [token];
  });
  add('data_source', 'data_source');
  add('payment_method', 'payment_method', (token) => [token.toLowerCase()]);
  add('pricing_model', 'pricing_model', (token) => {
    if (!PRICING_MODELS.includes(token))
      throw invalid('pricing_model', `expected values among ${PRICING_MODELS.join(', ')}`);
    return [token];
  });
  add('has_discount', 'has_discount', (token) => {
    if (token !== 'true' && token !== 'false') throw invalid('has_discount', 'expected true or false');
    return [token];
  });
  add('state', 'state', (token) => [token.toLowerCase()]);
  add('cancel_reason', 'cancel_reason');
  add('status', 'status', (token) => {
    if (token !== 'active' && token !== 'cancelled')
      throw invalid('status', 'expected values among active, cancelled');
    return [token];
  });
  add(
    'customer',
    'customer',
    (token) => [token],
    (value) => [value.trim()],
  );
  for (const key of ['industry', 'channel', 'size']) add(key, `custom:${key}`);
  for (const parameter of Object.keys(raw)
    .filter((name) => name.startsWith('custom_'))
    .sort()) {
    // Custom values may hold spaces, so they are separated by `~~`.
    add(
      parameter,
      `custom:${parameter.slice('custom_'.length)}`,
      (token) => [token],
      (value) => value.split('~~'),
    );
  }

  const plan = raw.plan;
  if (plan !== undefined && plan.trim() !== '') {
    const groups = tokensToFilter('plan', words(plan), (token) => [token]);
    const [include, exclude] = await Promise.all([
      context.plansOfGroups(groups.include),
      context.plansOfGroups(groups.exclude),
    ]);
    // A group with no plans includes nothing: a value no customer holds keeps that meaning.
    filters.push({
      ...groups,
      include: groups.include.length > 0 && include.length === 0 ? [''] : include,
      exclude,
    });
  }

  return filters;
}

/** Parses and checks a report request once: ranges resolved with today, filters validated. */
export async function buildReportQuery(
  raw: RawReportParams,
  context: ReportQueryContext,
): Promise<ReportQuery> {
  const [from, to] = parseRange(raw.date, context);
  const interval = (raw.interval ?? 'month') as Interval;
  if (!INTERVALS.includes(interval)) throw invalid('interval', `expected one of ${INTERVALS.join(', ')}`);
  const maxPeriods = MAX_REPORT_PERIODS[interval];
  if (maxPeriods !== undefined) checkPeriodCount({ from, to }, interval, maxPeriods);
  const baseCurrency = context.currency(raw.baseCurrency ?? context.baseCurrency);
  if (baseCurrency === undefined) {
    throw invalid('baseCurrency', `unknown currency "${raw.baseCurrency}": no exchange rates for it`);
  }

  const filters = await parseFilters(raw, context);
  const segment = raw.segment?.trim();
  if (segment) {
    const saved = await context.segmentFilters(segment);
    try {
      filters.push(...(await parseFilters(saved, context)));
    } catch (error) {
      // A plan group or currency the segment names may have gone since it was saved.
      if (!(error instanceof InvalidInputError)) throw error;
      throw invalid('segment', `segment "${segment}" no longer applies: ${error.message}`);
    }
  }

  return {
    today: context.today,
    from,
    to,
    interval,
    baseCurrency,
    fixFx: parseBoolean('fix_fx', raw.fix_fx),
    filters,
  };
}

/** A `breakdown` parameter: a dimension of engine/breakdown.ts, or undefined when absent. */
/**
 * The dimension a movement is split by rather than a customer: only the MRR report, whose
 * columns are movements, takes it (its service handles it before `parseBreakdown`).
 */
export const SUBTYPE_BREAKDOWN = 'subtype';

export function parseBreakdown(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === SUBTYPE_BREAKDOWN) {
    throw invalid(
      'breakdown',
      '"subtype" splits MRR movements, not customers; this report counts customers. ' +
        'Use /reports/mrr?breakdown=subtype or /reports/mrr-subtypes',
    );
  }
  if (!isBreakdown(raw)) throw invalid('breakdown', `unknown dimension "${raw}"`);
  return raw;
}

/** The `type` of `/reports/mrr-subtypes`: one of the kinds with several subtypes, required. */
export function parseSplitKind(raw: string | undefined): SplitKind {
  if (raw === undefined || !(SPLIT_KINDS as readonly string[]).includes(raw)) {
    throw invalid('type', `expected ${SPLIT_KINDS.join(', ')}`);
  }
  return raw as SplitKind;
}

/** The whole period of `interval` holding a `selected-date` (YYYY-MM-DD), or null without one. */
export function parseSelectedPeriod(raw: string | undefined, interval: Interval): Period | null {
  if (raw === undefined || raw === '') return null;
  const start = periodStart(parseReportDay('selected-date', raw), interval);
  return { start, end: nextPeriodStart(start, interval) - 1 };
}

/** `types`/`type` parameters: movement kinds separated by commas or spaces. */
export function parseKinds(parameter: string, raw: string | undefined): Set<MovementKind> | null {
  if (raw === undefined || raw.trim() === '') return null;
  const kinds = raw.split(/[\s,]+/).filter((kind) => kind !== '');
  const unknown = kinds.find((kind) => !(MOVEMENT_KINDS as readonly string[]).includes(kind));
  if (unknown !== undefined) {
    throw new InvalidInputError(
      `Invalid query parameter "${parameter}": "${unknown}" is not one of ${MOVEMENT_KINDS.join(', ')}`,
    );
  }
  return new Set(kinds as MovementKind[]);
}
