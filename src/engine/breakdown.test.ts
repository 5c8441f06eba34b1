import { describe, expect, it } from 'vitest';
import { customerView } from '../../test/helpers/customer-view.js';
import { breakdownGroups, breakdownMask, breakdownMasks, breakdownValue, isBreakdown } from './breakdown.js';

const customer = customerView;

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
      ].map((d) => breakdownValue(a, d)),
    ).toEqual(['pro', 'year', 'DE', null, null, 'saas', 'saas', 'a', 'ds1', 'usd']);
    expect(breakdownValue(b, 'state')).toBe('ny');
    expect(breakdownValue(b, 'cancel_reason')).toBe('unused');
  });

  const masks = (dimension: string, within: Uint8Array | null) =>
    breakdownMasks(breakdownGroups([a, b, c], dimension, within));

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

  it('masks the customers of one value within the filter', () => {
    expect([...breakdownMask([a, b, c], 'country', null, 'DE')]).toEqual([1, 0, 1]);
    expect([...breakdownMask([a, b, c], 'country', Uint8Array.of(0, 1, 1), 'DE')]).toEqual([0, 0, 1]);
    expect([...breakdownMask([a, b, c], 'state', null, 'ca')]).toEqual([0, 0, 0]);
  });

  it('knows its dimensions', () => {
    expect(['plan', 'custom_segment', 'state'].every(isBreakdown)).toBe(true);
    expect(['colour', 'custom_'].some(isBreakdown)).toBe(false);
  });
});
