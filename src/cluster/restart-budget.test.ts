import { describe, expect, it } from 'vitest';
import { restartBudget } from './restart-budget.js';

describe('restartBudget', () => {
  it('refuses the fifth exit within ten seconds', () => {
    const budget = restartBudget(5, 10_000);
    expect([0, 1_000, 2_000, 3_000].map((at) => budget.allows(at))).toEqual([true, true, true, true]);
    expect(budget.allows(9_999)).toBe(false);
  });

  it('forgets exits older than the window', () => {
    const budget = restartBudget(5, 10_000);
    for (const at of [0, 1_000, 2_000, 3_000]) budget.allows(at);
    // The exit at 0 is 10 s old: four within the window, not five.
    expect(budget.allows(10_000)).toBe(true);
    expect(budget.allows(10_500)).toBe(false);
  });
});
