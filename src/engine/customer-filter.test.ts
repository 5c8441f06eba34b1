import { describe, expect, it } from 'vitest';
import { type CustomerAttributes, customerMask, type Filter } from './customer-filter.js';
import { dayNumber as d } from './days.js';

// Four customers: a German in EUR on plan basic, a US customer on pro and basic, a French lead, one with no country.
const attributes: CustomerAttributes = {
  id: ['de', 'us', 'fr', 'none'],
  country: ['DE', 'US', 'FR', null],
  state: [null, 'ca', null, null],
  cancelReason: [null, null, 'too_expensive', null],
  currency: ['eur', 'usd', 'eur', 'usd'],
  dataSource: ['ds1', 'ds1', 'ds2', 'ds2'],
  status: ['active', 'active', 'cancelled', 'active'],
  plans: [['ds1:basic'], ['ds1:pro', 'ds1:basic'], [], ['ds2:pro']],
  billingFreqs: [['month'], ['year', 'month'], [], ['year']],
  paidStarted: [d('2024-01-01'), d('2023-01-01'), null, d('2024-05-01')],
  customVariables: [{ industry: 'saas' }, { industry: 'retail', size: 'large' }, {}, { industry: 'saas' }],
  paymentMethods: [['sepa'], ['visa', 'paypal'], [], ['visa']],
  pricingModels: [['licensed'], ['licensed', 'metered'], [], ['metered']],
  hasDiscount: ['true', 'false', 'false', 'false'],
};
const asOf = d('2024-07-01');
const filter = (dimension: Filter['dimension'], include: string[], extra: Partial<Filter> = {}): Filter => ({
  dimension,
  include,
  exclude: [],
  anyValue: false,
  notSet: false,
  ...extra,
});
const kept = (...filters: Filter[]) => {
  const mask = customerMask(attributes, filters, asOf);
  return mask === null ? 'everyone' : attributes.id.filter((_, index) => mask[index] === 1);
};

describe('customerMask', () => {
  it('keeps everyone without filters', () => {
    expect(kept()).toBe('everyone');
  });

  it.each([
    [filter('country', ['DE', 'FR']), ['de', 'fr']],
    [filter('country', [], { exclude: ['DE'] }), ['us', 'fr', 'none']],
    [filter('country', [], { anyValue: true }), ['de', 'us', 'fr']],
    [filter('country', [], { notSet: true }), ['none']],
    [filter('country', ['US'], { notSet: true }), ['us', 'none']],
    [filter('currency', ['eur']), ['de', 'fr']],
    [filter('data_source', ['ds2']), ['fr', 'none']],
    [filter('status', ['active']), ['de', 'us', 'none']],
    [filter('customer', ['us']), ['us']],
    [filter('state', ['ca']), ['us']],
    [filter('cancel_reason', ['too_expensive']), ['fr']],
    [filter('plan', ['ds1:basic']), ['de', 'us']],
    [filter('plan', [], { exclude: ['ds1:pro'] }), ['de', 'fr', 'none']],
    [filter('billing_freq', ['year']), ['us', 'none']],
    [filter('custom:industry', ['saas']), ['de', 'none']],
    [filter('custom:size', [], { notSet: true }), ['de', 'fr', 'none']],
    // Ages on Jul 1 2024: de 6 months (182 days / 30.4375 = 5.98 -> 5), us 17, none 2 (61 days); fr never paid.
    [filter('age', ['0-6']), ['de', 'none']],
    [filter('age', ['12-']), ['us']],
    [filter('age', ['0-3', '12-24']), ['us', 'none']],
    [filter('payment_method', ['visa']), ['us', 'none']],
    [filter('payment_method', [], { exclude: ['paypal'] }), ['de', 'fr', 'none']],
    [filter('pricing_model', ['metered']), ['us', 'none']],
    [filter('has_discount', ['true']), ['de']],
    [filter('has_discount', ['false']), ['us', 'fr', 'none']],
  ] as [Filter, string[]][])('%j keeps %j', (one, expected) => {
    expect(kept(one)).toEqual(expected);
  });

  it('combines filters with AND', () => {
    expect(kept(filter('currency', ['usd']), filter('custom:industry', ['saas']))).toEqual(['none']);
  });
});
