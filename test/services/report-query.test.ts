import { describe, expect, it } from 'vitest';
import { dayNumber as d } from '../../src/engine/days.js';
import { REGIONS } from '../../src/engine/regions.js';
import { InvalidInputError } from '../../src/services/errors.js';
import {
  buildReportQuery,
  parseBreakdown,
  parseSelectedPeriod,
  type RawReportParams,
  type ReportQueryContext,
} from '../../src/services/report-query.js';

const context: ReportQueryContext = {
  today: d('2026-11-23'),
  baseCurrency: 'usd',
  currency: (code) => (['usd', 'eur', 'gbp'].includes(code.toLowerCase()) ? code.toLowerCase() : undefined),
  country: (code) => (['US', 'DE', 'FR', 'GB'].includes(code.toUpperCase()) ? code.toUpperCase() : undefined),
  plansOfGroups: async (ids) => {
    const groups: Record<string, string[]> = { g1: ['ds:basic', 'ds:pro'], empty: [] };
    return ids.flatMap((id) => {
      const plans = groups[id];
      if (!plans) throw new InvalidInputError(`Invalid query parameter "plan": unknown plan group "${id}"`);
      return plans;
    });
  },
  segmentFilters: async (id) => {
    if (id === 'seg_gone') return { plan: 'deleted_group' };
    if (id !== 'seg_eu') throw new Error(`Segment ${id} not found`);
    return { region: 'eu', has_discount: 'true' };
  },
  defaultRangeDays: 365,
};
const build = (raw: RawReportParams) => buildReportQuery(raw, context);

describe('buildReportQuery', () => {
  it('fills the defaults: the last 365 days (today included) by month in the account currency', async () => {
    expect(await build({})).toEqual({
      today: d('2026-11-23'),
      from: d('2025-11-24'),
      to: d('2026-11-23'),
      interval: 'month',
      baseCurrency: 'usd',
      fixFx: false,
      filters: [],
    });
  });

  it('reads the range, interval, currency and fix_fx', async () => {
    expect(
      await build({ date: '20240101-20240630', interval: 'week', baseCurrency: 'EUR', fix_fx: 'true' }),
    ).toMatchObject({
      from: d('2024-01-01'),
      to: d('2024-06-30'),
      interval: 'week',
      baseCurrency: 'eur',
      fixFx: true,
    });
  });

  it('turns multi-value parameters into filters, with ~ negation, * and named regions', async () => {
    const query = await build({
      region: 'dach ~DE us',
      currency: 'EUR usd',
      industry: 'saas ~',
      custom_segment: 'Mid market~~~Enterprise',
      plan: 'g1',
      age: '0-6 12-',
      billing_freq: 'year',
      data_source: '*',
      customer: 'cus_1',
    });
    expect(query.filters).toEqual([
      {
        dimension: 'country',
        include: [...REGIONS.get('dach')!, 'US'],
        exclude: ['DE'],
        anyValue: false,
        notSet: false,
      },
      { dimension: 'currency', include: ['eur', 'usd'], exclude: [], anyValue: false, notSet: false },
      { dimension: 'billing_freq', include: ['year'], exclude: [], anyValue: false, notSet: false },
      { dimension: 'age', include: ['0-6', '12-'], exclude: [], anyValue: false, notSet: false },
      { dimension: 'data_source', include: [], exclude: [], anyValue: true, notSet: false },
      { dimension: 'customer', include: ['cus_1'], exclude: [], anyValue: false, notSet: false },
      { dimension: 'custom:industry', include: ['saas'], exclude: [], anyValue: false, notSet: true },
      {
        dimension: 'custom:segment',
        include: ['Mid market'],
        exclude: ['Enterprise'],
        anyValue: false,
        notSet: false,
      },
      { dimension: 'plan', include: ['ds:basic', 'ds:pro'], exclude: [], anyValue: false, notSet: false },
    ]);
  });

  it('reads payment method, pricing model and discount filters', async () => {
    const query = await build({
      payment_method: 'VISA ~paypal',
      pricing_model: 'metered',
      has_discount: 'false',
    });
    expect(query.filters).toEqual([
      { dimension: 'payment_method', include: ['visa'], exclude: ['paypal'], anyValue: false, notSet: false },
      { dimension: 'pricing_model', include: ['metered'], exclude: [], anyValue: false, notSet: false },
      { dimension: 'has_discount', include: ['false'], exclude: [], anyValue: false, notSet: false },
    ]);
  });

  it("adds a segment's filters to the request's, all applying together", async () => {
    const query = await build({ currency: 'eur', segment: 'seg_eu' });
    expect(query.filters).toEqual([
      { dimension: 'currency', include: ['eur'], exclude: [], anyValue: false, notSet: false },
      { dimension: 'country', include: REGIONS.get('eu'), exclude: [], anyValue: false, notSet: false },
      { dimension: 'has_discount', include: ['true'], exclude: [], anyValue: false, notSet: false },
    ]);
  });

  it('lets a plan group without plans match nobody', async () => {
    expect((await build({ plan: 'empty' })).filters).toEqual([
      { dimension: 'plan', include: [''], exclude: [], anyValue: false, notSet: false },
    ]);
  });

  it.each([
    [
      { date: '2024-01-01' },
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      { date: '20240230-20240301' },
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [{ date: '20240301-20240101' }, 'Invalid query parameter "date": the range ends before it starts'],
    [
      { interval: 'hour' },
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    [
      { baseCurrency: 'xyz' },
      'Invalid query parameter "baseCurrency": unknown currency "xyz": no exchange rates for it',
    ],
    [{ fix_fx: 'yes' }, 'Invalid query parameter "fix_fx": expected true or false'],
    [
      { region: 'atlantis' },
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    [{ currency: 'usd doubloon' }, 'Invalid query parameter "currency": unknown currency "doubloon"'],
    [
      { billing_freq: 'fortnight' },
      'Invalid query parameter "billing_freq": expected values among day, week, month, quarter, year',
    ],
    [{ age: 'young' }, 'Invalid query parameter "age": "young" is not a month range like 0-6 or 12-'],
    [
      { pricing_model: 'flat' },
      'Invalid query parameter "pricing_model": expected values among licensed, metered',
    ],
    [{ has_discount: 'maybe' }, 'Invalid query parameter "has_discount": expected true or false'],
    [{ segment: 'seg_unknown' }, 'Segment seg_unknown not found'],
    [
      { segment: 'seg_gone' },
      'Invalid query parameter "segment": segment "seg_gone" no longer applies: Invalid query parameter "plan": unknown plan group "deleted_group"',
    ],
  ] as [RawReportParams, string][])('rejects %j', async (raw, message) => {
    await expect(build(raw)).rejects.toThrow(message);
  });
});

describe('end date alone', () => {
  const endDate = { ...context, endDateAlone: true };

  it('reads one day as the end of a range of the default length, and still reads ranges', async () => {
    const query = await buildReportQuery({ date: '2026-06-30' }, endDate);
    expect([query.from, query.to]).toEqual([d('2025-07-01'), d('2026-06-30')]);
    const range = await buildReportQuery({ date: '20260101-20260331' }, endDate);
    expect([range.from, range.to]).toEqual([d('2026-01-01'), d('2026-03-31')]);
  });

  it('names both forms when neither fits', async () => {
    await expect(buildReportQuery({ date: '2026-02-30' }, endDate)).rejects.toThrow(
      'Invalid query parameter "date": expected a date YYYY-MM-DD or a range YYYYMMDD-YYYYMMDD of real dates',
    );
  });
});

describe('default range ahead', () => {
  it('runs from tomorrow for the given days, for reports of what is scheduled', async () => {
    const query = await buildReportQuery({}, { ...context, defaultRangeAhead: true });
    expect([query.from, query.to]).toEqual([d('2026-11-24'), d('2027-11-23')]);
  });
});

describe('parseBreakdown', () => {
  it('accepts the dimensions and custom_<key>, and names the parameter otherwise', () => {
    expect(parseBreakdown(undefined)).toBeUndefined();
    expect(parseBreakdown('plan')).toBe('plan');
    expect(parseBreakdown('custom_segment')).toBe('custom_segment');
    expect(() => parseBreakdown('colour')).toThrow(
      'Invalid query parameter "breakdown": unknown dimension "colour"',
    );
  });
});

describe('parseSelectedPeriod', () => {
  it('is the whole period of the interval holding the day', () => {
    expect(parseSelectedPeriod(undefined, 'month')).toBeNull();
    expect(parseSelectedPeriod('2026-11-23', 'month')).toEqual({
      start: d('2026-11-01'),
      end: d('2026-11-30'),
    });
    // Nov 23 2026 is a Monday.
    expect(parseSelectedPeriod('2026-11-29', 'week')).toEqual({
      start: d('2026-11-23'),
      end: d('2026-11-29'),
    });
    expect(parseSelectedPeriod('2026-02-10', 'quarter')).toEqual({
      start: d('2026-01-01'),
      end: d('2026-03-31'),
    });
    expect(() => parseSelectedPeriod('2026-02-30', 'day')).toThrow(
      'Invalid query parameter "selected-date": expected a real date YYYY-MM-DD',
    );
  });
});
