import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATIONS } from '../../src/services/settings-service.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

describe.each(STORE_KINDS)('settings endpoints on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const get = (url: string, key = account.adminKey) => t.call(key, { method: 'GET', url });
  const put = (payload: unknown, key = account.adminKey) =>
    t.call(key, { method: 'PUT', url: '/v1/settings/notifications', payload: payload as object });

  /** The hosted service's flat fields, answered beside the nested ones: all off by default. */
  const flat = (on: Record<string, boolean> = {}) => ({
    daily_report: false,
    weekly_report: false,
    monthly_report: false,
    expansion_alert_threshold: null,
    contraction_alert_threshold: null,
    notify_scheduled_churn: false,
    notify_failed_payment: false,
    ...on,
  });

  it('starts from the documented defaults', async () => {
    const response = await get('/settings/notifications');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: { enabled: false, recipients: [], frequency: 'weekly' },
      chat: { enabled: false, channel: '', events: [], slack_webhook_url: '', teams_webhook_url: '' },
      alerts: { churn_threshold: 0, mrr_drop_threshold: 0 },
      ...flat(),
    });
  });

  it('deep-merges a partial body and returns the whole object', async () => {
    const first = await put({ email: { enabled: true, recipients: ['cfo@example.com'] } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      ...DEFAULT_NOTIFICATIONS,
      email: { enabled: true, recipients: ['cfo@example.com'], frequency: 'weekly' },
      ...flat({ weekly_report: true }),
    });

    const second = await put({
      chat: { channel: '#revenue', events: ['churn', 'new_customer'] },
      alerts: { churn_threshold: 50000 },
    });
    const expected = {
      email: { enabled: true, recipients: ['cfo@example.com'], frequency: 'weekly' },
      chat: {
        enabled: false,
        channel: '#revenue',
        events: ['churn', 'new_customer'],
        slack_webhook_url: '',
        teams_webhook_url: '',
      },
      alerts: { churn_threshold: 50000, mrr_drop_threshold: 0 },
      ...flat({ weekly_report: true }),
    };
    expect(second.json()).toEqual(expected);
    expect((await get('/settings/notifications')).json()).toEqual(expected);

    // Arrays are replaced as a whole.
    const third = await put({ email: { recipients: ['ceo@example.com', 'cfo@example.com'] } });
    expect(third.json().email.recipients).toEqual(['ceo@example.com', 'cfo@example.com']);
    expect((await put({})).json()).toEqual(third.json());
  });

  it.each([
    [
      { email: { enabled: 'yes' } },
      'Invalid body field "email.enabled": Invalid input: expected boolean, received string',
    ],
    [
      { email: { recipients: ['ok@example.com', 'not-an-email'] } },
      'Invalid body field "email.recipients.1": Invalid email address',
    ],
    [
      { email: { recipients: 'a@example.com' } },
      'Invalid body field "email.recipients": Invalid input: expected array, received string',
    ],
    [
      { email: { frequency: 'hourly' } },
      'Invalid body field "email.frequency": Invalid option: expected one of "daily"|"weekly"|"monthly"',
    ],
    [
      { chat: { events: ['refund'] } },
      'Invalid body field "chat.events.0": Invalid option: expected one of "new_customer"|"expansion"|"contraction"|"churn"|"reactivation"|"scheduled_churn"|"failed_payment"|"payment_recovered"',
    ],
    [
      { alerts: { mrr_drop_threshold: -1 } },
      'Invalid body field "alerts.mrr_drop_threshold": Too small: expected number to be >=0',
    ],
    [
      { alerts: { churn_threshold: '5' } },
      'Invalid body field "alerts.churn_threshold": Invalid input: expected number, received string',
    ],
    [{ sms: { enabled: true } }, 'Unknown body field: sms'],
    [{ email: { enabled: true, cc: [] } }, 'Unknown body field in "email": cc'],
    [[], 'Invalid body: Invalid input: expected object, received array'],
    [
      { daily_report: true, weekly_report: true },
      'Email digests go out at one frequency: set at most one of daily_report, weekly_report, monthly_report to true',
    ],
    [
      { expansion_alert_threshold: 5000 },
      'expansion_alert_threshold is not supported: set alerts.churn_threshold or alerts.mrr_drop_threshold',
    ],
    [
      { weekly_report: 'yes' },
      'Invalid body field "weekly_report": Invalid input: expected boolean, received string',
    ],
  ])('rejects %j with a 400 naming the field and changes nothing', async (body, message) => {
    const before = (await get('/settings/notifications')).json();
    const response = await put(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message });
    expect((await get('/settings/notifications')).json()).toEqual(before);
  });

  it('keeps each account its own settings', async () => {
    const other = await t.newAccount('Other');
    expect((await get('/settings/notifications', other.adminKey)).json()).toEqual({
      ...DEFAULT_NOTIFICATIONS,
      ...flat(),
    });
  });

  it("takes the hosted service's flat fields as another way to write the same settings", async () => {
    const other = await t.newAccount('Flat');
    const putFlat = (payload: object) =>
      t.call(other.adminKey, { method: 'PUT', url: '/settings/notifications', payload });
    // A true report flag turns email on at that frequency.
    const daily = (await putFlat({ daily_report: true, notify_failed_payment: true })).json();
    expect(daily).toMatchObject({
      email: { enabled: true, frequency: 'daily' },
      chat: { events: ['failed_payment'] },
      ...flat({ daily_report: true, notify_failed_payment: true }),
    });
    // False for another frequency changes nothing; for the one in effect, email goes off.
    expect((await putFlat({ monthly_report: false })).json().email.enabled).toBe(true);
    const off = (await putFlat({ daily_report: false, notify_failed_payment: false })).json();
    expect(off).toMatchObject({ email: { enabled: false, frequency: 'daily' }, chat: { events: [] } });
    // Nested fields in the same body win, and a read sent back as is changes nothing.
    const nested = (await putFlat({ weekly_report: true, email: { frequency: 'monthly' } })).json();
    expect(nested).toMatchObject({
      email: { enabled: true, frequency: 'monthly' },
      ...flat({ monthly_report: true }),
    });
    expect((await putFlat(nested)).json()).toEqual(nested);
  });

  it('reports processor-a as not connected until a connector connects it', async () => {
    const response = await get('/settings/processor-a');
    expect(response.json()).toEqual({
      connected: false,
      account_id: null,
      account_name: null,
      livemode: false,
      connected_at: null,
      last_sync: null,
      sync_status: null,
      customers_imported: 0,
      invoices_imported: 0,
    });
    // The hosted service's clients ask for it as /settings/stripe.
    expect((await get('/settings/stripe')).json()).toEqual(response.json());
  });

  it('reports the CRM integration as not connected', async () => {
    expect((await get('/settings/crm')).json()).toEqual({
      connected: false,
      provider: null,
      connected_at: null,
      last_sync: null,
      sync_status: null,
    });
    expect((await get('/settings/hubspot')).json()).toEqual((await get('/settings/crm')).json());
  });

  it('reports Looker Studio as unavailable, pointing at the exports', async () => {
    const response = await get('/settings/looker-studio');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ connected: false, available: false });
    expect(response.json().message).toContain('/exports/');
  });

  it('answers every setting at once, as the parts answer them, for admin keys only', async () => {
    const all = await get('/settings');
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({
      account: (await get('/account/profile')).json(),
      notifications: (await get('/settings/notifications')).json(),
      'processor-a': (await get('/settings/processor-a')).json(),
      crm: (await get('/settings/crm')).json(),
    });
    expect(all.json().account.base_currency).toBe('usd');
    expect((await get('/settings', account.viewerKey)).statusCode).toBe(403);
  });

  it("changes the base currency by POST /settings, as the hosted service's clients do, for admin keys only", async () => {
    const post = (payload: object, key = account.adminKey) =>
      t.call(key, { method: 'POST', url: '/settings', payload });
    const refused = await post({ base_currency: 'xts' });
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { error: 'Invalid field "base_currency": unknown currency "xts": no exchange rates for it' },
    ]);
    expect((await post({ base_currency: 'eur' }, account.viewerKey)).statusCode).toBe(403);
    expect((await post({ timezone: 'UTC' })).statusCode).toBe(400);
    // The currency already set changes nothing, so nothing is rebuilt.
    const version = await t.services.store.changes.dataVersion(account.id);
    expect((await post({ base_currency: 'usd' })).statusCode).toBe(200);
    expect(await t.services.store.changes.dataVersion(account.id)).toBe(version);
    const changed = await post({ base_currency: 'EUR' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual((await get('/settings')).json());
    expect(changed.json().account.base_currency).toBe('eur');
    expect((await t.read(account.viewerKey, '/reports/summary')).currency).toBe('eur');
  });
});
