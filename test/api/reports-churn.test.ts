import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, reportFixtureAccount } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. A monthly invoice that is not renewed churns its customer the day its
// period ends (plus the grace days the metrics use; docs/metrics.md).
const RATES = 'Date,USD\n2026-08-01,1.25\n';
const monthly = (
  id: string,
  customer_id: string,
  currency: string,
  amount: number,
  start: string,
  end: string,
) => ({
  id,
  customer_id,
  currency,
  date: start,
  lines: [{ plan_id: currency === 'usd' ? 'basic' : 'euro', amount, period_start: start, period_end: end }],
});

describe.each(STORE_KINDS)('churn reasons and cancellation timing on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    let post;
    ({ account, post } = await reportFixtureAccount(t, RATES));
    await post('/data/customers', [
      { id: 'a', name: 'A', currency: 'usd', created_date: '2026-06-01', cancel_reason: 'too_expensive' },
      { id: 'b', name: 'B', currency: 'usd', created_date: '2026-06-01', cancel_reason: 'too_expensive' },
      { id: 'c', name: 'C', currency: 'eur', created_date: '2026-06-01', cancel_reason: 'switched' },
      { id: 'd', name: 'D', currency: 'usd', created_date: '2026-06-01' },
      { id: 'e', name: 'E', currency: 'usd', created_date: '2026-06-01' },
    ]);
    await post('/data/invoices', [
      // a, b, c and d pay June to August only, then churn in September; e keeps paying.
      monthly('a1', 'a', 'usd', 5000, '2026-06-01', '2026-09-01'),
      monthly('b1', 'b', 'usd', 2000, '2026-06-01', '2026-09-01'),
      monthly('c1', 'c', 'eur', 8000, '2026-06-01', '2026-09-01'),
      monthly('d1', 'd', 'usd', 1000, '2026-06-01', '2026-09-01'),
      monthly('e1', 'e', 'usd', 3000, '2026-06-01', '2026-12-01'),
    ]);
  });
  afterAll(() => t.close());

  it('counts the cancellations of the range by reason, with the figures in Markdown', async () => {
    const body = await t.read(account.viewerKey, '/reports/churn-reasons-summary?date=20260101-20261123');
    // Four churns; d gives no reason. too_expensive: a 5000 + b 2000 = 7000, 2 of 4 = 50 %;
    // switched: c 8000 EUR x 1.25 = 10000 USD, 25 %.
    expect(body).toEqual({
      currency: 'usd',
      comment_count: 3,
      total_cancellations: '4',
      generated_at: t.clock.now().toISOString(),
      reasons: [
        { reason: 'too_expensive', cancellations: 2, churned_mrr: 7000, share_pct: 50 },
        { reason: 'switched', cancellations: 1, churned_mrr: 10000, share_pct: 25 },
        { reason: null, cancellations: 1, churned_mrr: 1000, share_pct: 25 },
      ],
      summary: [
        '4 cancellations, 3 with a reason:',
        '',
        '- **too_expensive**: 2 cancellations (50%), 70.00 USD of MRR',
        '- **switched**: 1 cancellation (25%), 100.00 USD of MRR',
        '- No reason given: 1 cancellation (25%), 10.00 USD of MRR',
      ].join('\n'),
    });
  });

  it('says no_comments when no cancellation of the range gives a reason, and takes the filters', async () => {
    const quiet = await t.read(account.viewerKey, '/reports/churn-reasons-summary?date=20260101-20260731');
    expect(quiet).toMatchObject({
      summary: null,
      reason: 'no_comments',
      total_cancellations: '0',
      reasons: [],
    });
    const euro = await t.read(
      account.viewerKey,
      '/reports/churn-reasons-summary?currency=eur&regenerate=true',
    );
    expect(euro.reasons).toEqual([
      { reason: 'switched', cancellations: 1, churned_mrr: 10000, share_pct: 100 },
    ]);
  });

  it('times the cancellations from the start of each paid spell', async () => {
    // a, b, c and d paid from Jun 1; the last period ends Aug 31 and the 3 grace days take the
    // churn to Sep 4: 30 (June) + 31 + 31 + 3 = 95 days, all in 91-180. 5000 + 2000 + 10000 + 1000.
    const timing = await t.read(account.viewerKey, '/reports/cancellation-timing?date=20260101-20261123');
    expect(timing.summary).toEqual({ cancellations: 4, average_days: 95 });
    expect(timing.result.find((row: { bucket: string }) => row.bucket === '91-180')).toEqual({
      bucket: '91-180',
      min_days: 91,
      max_days: 180,
      cancellations: 4,
      churned_mrr: 18000,
      percent: 100,
    });
    const detail = await t.read(account.viewerKey, '/reports/cancellation-timing-detail?limit=2&offset=1');
    // Same day: by customer id; the page skips a.
    expect(detail.result).toEqual({
      count: 2,
      list: [
        {
          date: '2026-09-04',
          customer_id: 'b',
          customer_name: 'B',
          customer_email: null,
          paid_start_date: '2026-06-01',
          days_active: 95,
          churned_mrr: 2000,
          cancel_reason: 'too_expensive',
        },
        expect.objectContaining({ customer_id: 'c', churned_mrr: 10000, cancel_reason: 'switched' }),
      ],
    });
  });

  it('refuses a bad regenerate or date with 400', async () => {
    for (const [query, error] of [
      ['regenerate=perhaps', 'Invalid query parameter "regenerate": expected true or false'],
      ['date=2026', 'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates'],
    ]) {
      const response = await t.call(account.viewerKey, {
        method: 'GET',
        url: `/reports/churn-reasons-summary?${query}`,
      });
      expect([response.statusCode, response.json()]).toEqual([400, { error }]);
    }
  });
});
