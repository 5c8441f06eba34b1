import { describe, expect, it } from 'vitest';
import { type AlertDay, crossedAlerts, mrrDropPercent } from './alerts.js';

const day = (date: string, churn: number, total_mrr: number): AlertDay => ({ date, churn, total_mrr });

describe('mrrDropPercent', () => {
  it('is the fall from the day before as a percentage of it', () => {
    // (200000 - 180000) / 200000 * 100 = 10.
    expect(mrrDropPercent(day('d1', 0, 200_000), day('d2', 0, 180_000))).toBe(10);
  });

  it('is 0 when MRR grew, stayed, or there was none', () => {
    expect(mrrDropPercent(day('d1', 0, 100), day('d2', 0, 150))).toBe(0);
    expect(mrrDropPercent(day('d1', 0, 100), day('d2', 0, 100))).toBe(0);
    expect(mrrDropPercent(day('d1', 0, 0), day('d2', 0, 0))).toBe(0);
  });
});

describe('crossedAlerts', () => {
  const thresholds = { churn_threshold: 50_000, mrr_drop_threshold: 5 };

  it('alerts on the last day when its measure goes above the threshold from at or below it', () => {
    // Churn: 60000 > 50000 on d3, 50000 (not above) on d2. Drop d2->d3: (1000000 - 940000) / 1000000 = 6% > 5%;
    // d1->d2: (1000000 - 1000000) = 0%.
    const alerts = crossedAlerts(
      [day('d1', 0, 1_000_000), day('d2', -50_000, 1_000_000), day('d3', -60_000, 940_000)],
      thresholds,
    );
    expect(alerts).toEqual([
      { kind: 'churn', date: 'd3', value: 60_000, threshold: 50_000 },
      { kind: 'mrr_drop', date: 'd3', value: 6, threshold: 5 },
    ]);
  });

  it('sends nothing while the measure stays above the threshold', () => {
    // Churn 70000 then 60000, both above 50000. Drops: 1000000 -> 900000 (10%), -> 850000 (5.56%), both above 5%.
    expect(
      crossedAlerts(
        [day('d1', 0, 1_000_000), day('d2', -70_000, 900_000), day('d3', -60_000, 850_000)],
        thresholds,
      ),
    ).toEqual([]);
  });

  it('takes the threshold as the most still allowed, and 0 as off', () => {
    // Exactly 50000 churned and exactly 5% fallen (1000000 -> 950000): not above.
    expect(
      crossedAlerts(
        [day('d1', 0, 1_000_000), day('d2', 0, 1_000_000), day('d3', -50_000, 950_000)],
        thresholds,
      ),
    ).toEqual([]);
    expect(
      crossedAlerts([day('d1', 0, 1_000_000), day('d2', 0, 1_000_000), day('d3', -1, 0)], {
        churn_threshold: 0,
        mrr_drop_threshold: 0,
      }),
    ).toEqual([]);
  });
});
