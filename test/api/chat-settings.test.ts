import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const SLACK = 'https://hooks.slack.com/services/T000/B000/secretXYZ1';
const TEAMS = 'https://example.webhook.office.com/webhookb2/abc/IncomingWebhook/def/ghi9';

describe.each(STORE_KINDS)('chat webhook settings on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, key = account.adminKey) =>
    t.call(key, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('stores the webhook URLs but answers them masked: origin and last four characters', async () => {
    const response = await call('PUT', '/settings/notifications', {
      chat: { enabled: true, slack_webhook_url: SLACK, teams_webhook_url: TEAMS },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().chat).toEqual({
      enabled: true,
      channel: '',
      events: [],
      slack_webhook_url: 'https://hooks.slack.com/…XYZ1',
      teams_webhook_url: 'https://example.webhook.office.com/…ghi9',
    });
    expect((await call('GET', '/settings')).json().notifications.chat.slack_webhook_url).toBe(
      'https://hooks.slack.com/…XYZ1',
    );
    // The service itself holds the whole URL, to post to.
    expect((await t.services.settings.notifications(account.id)).chat.slack_webhook_url).toBe(SLACK);
  });

  it('leaves a URL unchanged when the masked value read is sent back (a form saving everything)', async () => {
    const read = (await call('GET', '/settings/notifications')).json();
    const response = await call('PUT', '/settings/notifications', {
      ...read,
      chat: { ...read.chat, channel: '#rev' },
    });
    expect(response.statusCode).toBe(200);
    const stored = (await t.services.settings.notifications(account.id)).chat;
    expect([stored.slack_webhook_url, stored.teams_webhook_url, stored.channel]).toEqual([
      SLACK,
      TEAMS,
      '#rev',
    ]);
  });

  it('serves each chat system on its own path, as the hosted clients read it', async () => {
    await call('PUT', '/settings/notifications', { chat: { events: ['churn'] } });
    expect((await call('GET', '/settings/slack')).json()).toEqual({
      enabled: true,
      webhook_url: 'https://hooks.slack.com/…XYZ1',
      channel: '#rev',
      events: ['churn'],
    });
    const teams = await call('POST', '/v1/settings/teams', {
      webhook_url: '',
      events: ['churn', 'new_customer'],
    });
    expect(teams.statusCode).toBe(200);
    // Without a URL the system is off, whatever chat.enabled says.
    expect(teams.json()).toEqual({
      enabled: false,
      webhook_url: null,
      channel: '#rev',
      events: ['churn', 'new_customer'],
    });
    expect((await t.services.settings.notifications(account.id)).chat).toMatchObject({
      enabled: true,
      teams_webhook_url: '',
      slack_webhook_url: SLACK,
    });
    const slack = await call('POST', '/settings/slack', { enabled: false });
    expect(slack.json()).toMatchObject({ enabled: false, webhook_url: 'https://hooks.slack.com/…XYZ1' });
  });

  it.each([
    [
      'PUT',
      '/settings/notifications',
      { chat: { slack_webhook_url: 'ftp://hooks.example.com/x' } },
      'Invalid body field "chat.slack_webhook_url"',
    ],
    [
      'PUT',
      '/settings/notifications',
      { chat: { teams_webhook_url: 'not a url' } },
      'Invalid body field "chat.teams_webhook_url"',
    ],
    ['POST', '/settings/slack', { webhook_url: 'nope' }, 'Invalid body field "webhook_url"'],
    ['POST', '/settings/teams', { url: TEAMS }, 'Unknown body field: url'],
    ['POST', '/settings/slack', { events: ['refund'] }, 'Invalid body field "events.0"'],
  ] as const)('%s %s refuses %j with a 400', async (method, url, body, message) => {
    const before = await t.services.settings.notifications(account.id);
    const response = await call(method, url, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(message);
    expect(await t.services.settings.notifications(account.id)).toEqual(before);
  });

  it('refuses the chat settings to viewer keys, reading and writing', async () => {
    expect((await call('GET', '/settings/slack', undefined, account.viewerKey)).statusCode).toBe(403);
    expect((await call('POST', '/settings/teams', { enabled: true }, account.viewerKey)).statusCode).toBe(
      403,
    );
    expect((await t.call(undefined, { method: 'GET', url: '/settings/teams' })).statusCode).toBe(401);
  });
});
