import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

// A report parses every parameter, its own included, before it loads the account's snapshot:
// a bad request costs no data, however large the account.
describe('report parameters are checked before data loads', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  it.each([
    ['/reports/mrr?committed=maybe', 'Invalid query parameter "committed": expected true or false'],
    [
      '/reports/mrr?compare=yesterday',
      'Invalid query parameter "compare": expected last-period or last-year',
    ],
    ['/reports/mrr?breakdown=colour', 'Invalid query parameter "breakdown": unknown dimension "colour"'],
    [
      '/reports/movement-table?type=upgrade',
      'Invalid query parameter "type": "upgrade" is not one of new, expansion, contraction, churn, reactivation',
    ],
    [
      '/reports/mrr-growth?compareMonth=2026-13',
      'Invalid query parameter "compareMonth": expected a month YYYY-MM',
    ],
    [
      '/reports/retention?trailing_months=0',
      'Invalid query parameter "trailing_months": expected a whole number of months from 1 to 120',
    ],
    [
      '/reports/churn-scheduled-movements?selected-date=2026-02-30',
      'Invalid query parameter "selected-date": expected a real date YYYY-MM-DD',
    ],
  ])('%s', async (url, error) => {
    const snapshot = vi.spyOn(t.services.metrics, 'snapshot');
    try {
      await t.expectBadRequest(account.viewerKey, url, error);
      expect(snapshot).not.toHaveBeenCalled();
    } finally {
      snapshot.mockRestore();
    }
  });

  it('reads an empty true/false parameter as false, as every such parameter does', async () => {
    const plain = await t.read(account.viewerKey, '/reports/mrr?date=20261101-20261130');
    expect(await t.read(account.viewerKey, '/reports/mrr?date=20261101-20261130&committed=')).toEqual(plain);
  });
});
