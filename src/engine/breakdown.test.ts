import { describe, expect, it } from 'vitest';
import { customerView } from '../../test/helpers/customer-view.js';
import { buildAccountSnapshot } from './account-snapshot.js';
import {
  AGE_BUCKETS,
  breakdownGroups,
  breakdownMask,
  breakdownMasks,
  breakdownValue,
  isBreakdown,
} from './breakdown.js';
import { customerMask } from './customer-filter.js';
import { dayNumber } from './days.js';
import { REGIONS } from './regions.js';

const customer = customerView;
/** The day `age` is measured on, the range's end. */
const END = dayNumber('2026-12-31');

describe('breakdowns', () => {
  const a = customer('a', {
    country: 'DE',
    primaryPlan: 'ds1:pro',
    primaryBillingFreq: 'year',
    customVariables: { industry: 'saas' },
  });
  const b = customer('b', { country: 'US', state: 'ny', cancelReason: 'unused', primaryPlan: 'ds1:basic' });
  const c = customer('c', { country: 'DE' });

  it('reads one value per customer, the plan without its data source', () => {
    expect(
      [
        'plan',
        'billing_freq',
        'country',
        'state',
        'cancel_reason',
        'industry',
        'custom_industry',
        'customer',
        'data_source',
        'currency',
      ].map((d) => breakdownValue(a, d, END)),
    ).toEqual(['pro', 'year', 'DE', null, null, 'saas', 'saas', 'a', 'ds1', 'usd']);
    expect(breakdownValue(b, 'state', END)).toBe('ny');
    expect(breakdownValue(b, 'cancel_reason', END)).toBe('unused');
  });

  const masks = (dimension: string, within: Uint8Array | null) =>
    breakdownMasks(breakdownGroups(buildAccountSnapshot(1, [a, b, c]), dimension, within, END));

  it('groups customers by value, values sorted and "not set" last, within the filter', () => {
    const groups = masks('country', null);
    expect(groups.map(({ value, customers }) => [value, [...customers]])).toEqual([
      ['DE', [1, 0, 1]],
      ['US', [0, 1, 0]],
    ]);
    const plans = masks('plan', Uint8Array.of(1, 1, 1));
    expect(plans.map(({ value }) => value)).toEqual(['basic', 'pro', null]);
    expect(masks('country', Uint8Array.of(0, 1, 0)).map(({ value }) => value)).toEqual(['US']);
  });

  it('orders two values the reader finds equal by their code units, whichever came first', () => {
    // One word, precomposed and with a combining accent: localeCompare finds them equal.
    const composed = customer('x', { customVariables: { industry: 'Caf\u00e9' } });
    const combining = customer('y', { customVariables: { industry: 'Cafe\u0301' } });
    for (const customers of [
      [composed, combining],
      [combining, composed],
    ])
      expect(breakdownGroups(buildAccountSnapshot(1, customers), 'industry', null, END).values).toEqual([
        'Cafe\u0301',
        'Caf\u00e9',
      ]);
  });

  it('masks the customers of one value within the filter', () => {
    expect([...breakdownMask([a, b, c], 'country', null, 'DE', END)]).toEqual([1, 0, 1]);
    expect([...breakdownMask([a, b, c], 'country', Uint8Array.of(0, 1, 1), 'DE', END)]).toEqual([0, 0, 1]);
    expect([...breakdownMask([a, b, c], 'state', null, 'ca', END)]).toEqual([0, 0, 0]);
  });

  it("reads the payment method of the latest successful payment and the primary plan's pricing model", () => {
    const card = customer('card', {
      paymentMethods: ['card', 'sepa'],
      latestPaymentMethod: 'sepa',
      pricingModels: ['licensed', 'metered'],
      primaryPricingModel: 'metered',
    });
    expect(['payment_method', 'pricing_model'].map((d) => breakdownValue(card, d, END))).toEqual([
      'sepa',
      'metered',
    ]);
    // Without a successful payment or a plan with revenue: no value, even with methods tried.
    const tried = customer('tried', { paymentMethods: ['card'] });
    expect(['payment_method', 'pricing_model'].map((d) => breakdownValue(tried, d, END))).toEqual([
      null,
      null,
    ]);
  });

  // Months are whole 30.4375-day months from the first paid day to END (Dec 31), as the age
  // filter counts them: 91 days is 2.99 months, 92 days 3.02; 182 days 5.98, 183 days 6.01;
  // 365 days 11.99, 366 days 12.02; 730 days 23.98, 731 days 24.02.
  const paidDaysBefore = [0, 91, 92, 182, 183, 365, 366, 730, 731, -1];
  const aged = [
    ...paidDaysBefore.map((days) => customer(`paid_${days}`, { firstPaidDay: END - days })),
    customer('never'),
  ];

  it('puts each customer in one age bucket as of the range end; before its first payment or never paid, none', () => {
    expect(aged.map((one) => breakdownValue(one, 'age', END))).toEqual([
      '0-3',
      '0-3',
      '3-6',
      '3-6',
      '6-12',
      '6-12',
      '12-24',
      '12-24',
      '24-',
      // First paid the day after the range ends.
      null,
      null,
    ]);
    // A year earlier, 365 days less: the customer paid 731 days before Dec 31 is 366 days in.
    expect(breakdownValue(aged[8]!, 'age', END - 365)).toBe('12-24');
  });

  it('keeps in each age bucket the customers the age filter with that range keeps', () => {
    const { attributes } = buildAccountSnapshot(1, aged);
    for (const bucket of AGE_BUCKETS) {
      const filter = {
        dimension: 'age' as const,
        include: [bucket],
        exclude: [],
        anyValue: false,
        notSet: false,
      };
      expect([...breakdownMask(aged, 'age', null, bucket, END)]).toEqual([
        ...customerMask(attributes, [filter], END)!,
      ]);
    }
  });

  it('puts each country in one market, overlaps resolved once', () => {
    const countries = ['US', 'CA', 'MX', 'BR', 'DE', 'GB', 'CY', 'EG', 'ZA', 'AE', 'TR', 'JP', 'AU', 'AQ'];
    expect(countries.map((country) => breakdownValue(customer(country, { country }), 'market', END))).toEqual(
      [
        'north_america',
        'north_america',
        // Mexico is in both North and Latin America: latam.
        'latam',
        'latam',
        'europe',
        'europe',
        // Cyprus is in Europe and the Middle East: europe; Egypt in Africa and the Middle East: africa.
        'europe',
        'africa',
        'africa',
        'middle_east',
        'middle_east',
        'apac',
        'apac',
        // Antarctica is in no market.
        null,
      ],
    );
    expect(breakdownValue(customer('none'), 'market', END)).toBeNull();
  });

  it('gives every country of the six regions the market of one region that lists it', () => {
    const markets = ['north_america', 'latam', 'europe', 'middle_east', 'africa', 'apac'];
    for (const country of new Set(markets.flatMap((market) => REGIONS.get(market)!))) {
      const market = breakdownValue(customer(country, { country }), 'market', END);
      expect(REGIONS.get(market!), country).toContain(country);
    }
  });

  it('knows its dimensions', () => {
    expect(
      ['plan', 'custom_segment', 'state', 'payment_method', 'pricing_model', 'age', 'market'].every(
        isBreakdown,
      ),
    ).toBe(true);
    expect(['colour', 'custom_'].some(isBreakdown)).toBe(false);
  });
});
