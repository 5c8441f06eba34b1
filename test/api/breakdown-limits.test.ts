import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

// A breakdown by customer made one series per customer: on a large account, a series for each of
// 100,000 customers computed one after another, held as masks of 100,000 bytes each (issue 14).
// The check reads the snapshot alone, so one store kind is enough here.
describe('breakdown limits', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    account = await t.newAccount();
    // 501 customers: 30 in Germany, the rest in France.
    const customers = Array.from({ length: 501 }, (_, index) => ({
      id: `c${index}`,
      name: `Customer ${index}`,
      country: index < 30 ? 'DE' : 'FR',
    }));
    const source = await t.seed(account.adminKey, '/data/data-sources', { name: 'Books', type: 'api' });
    await t.seed(account.adminKey, `/data/customers?data_source_id=${source.json().id}`, customers);
  });
  afterAll(() => t.close());

  const TOO_MANY_VALUES =
    'Invalid query parameter "breakdown": "customer" splits these customers into 501 values, more than 500; ' +
    'filter the customers or choose another dimension';

  it.each(['/reports/mrr', '/reports/retention', '/reports/cohort'])(
    'refuses more than 500 series on %s',
    async (path) => {
      await t.expectBadRequest(account.viewerKey, `${path}?breakdown=customer`, TOO_MANY_VALUES);
    },
  );

  it('serves the breakdown once a filter leaves 500 values or fewer', async () => {
    const body = await t.read(
      account.viewerKey,
      '/reports/mrr?breakdown=customer&region=DE&date=20261101-20261130',
    );
    // 30 customers, one month each: 30 rows.
    expect(body.result).toHaveLength(30);
  });

  it('refuses more than 100,000 rows in all', async () => {
    // 30 series of 3,700 days make 111,000 rows.
    await t.expectBadRequest(
      account.viewerKey,
      '/reports/mrr?breakdown=customer&region=DE&interval=day&date=20161007-20261123',
      'Invalid query parameter "breakdown": "customer" gives 30 series, more than 100000 rows over this range; ' +
        'choose a shorter range, a longer interval or fewer customers',
    );
  });

  it('keeps one value of a breakdown for the scheduled churn list', async () => {
    const body = await t.read(
      account.viewerKey,
      '/reports/churn-scheduled-movements?breakdown=customer&breakdown-value=c1',
    );
    expect(body.result.list).toEqual([]);
  });
});
