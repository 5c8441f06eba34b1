import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOCAL_RECEIVERS, reportFixtureAccount, type TestApp } from '../helpers/app.js';
import { httpReceiver, smtpInbox } from '../helpers/receivers.js';
import { STORE_KINDS } from '../helpers/stores.js';

// These call the service without a job runner, as the CLI does, so each send runs at once;
// test/api/notifications-runner.test.ts drives the same path through the runner the server runs.

const RATES = 'Date,USD\n2024-01-01,1.25\n';
const subscription = (
  id: string,
  customer_id: string,
  started_at: string,
  mrr: number,
  ended_at?: string,
) => ({
  id,
  customer_id,
  plan_id: 'basic',
  status: ended_at === undefined ? 'active' : 'canceled',
  started_at,
  mrr,
  ...(ended_at === undefined ? {} : { ended_at }),
});
const customer = (id: string, name: string) => ({ id, name, currency: 'usd', created_date: '2024-11-01' });
const isoDay = (start: string, days: number) =>
  new Date(Date.parse(`${start}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe.each(STORE_KINDS)('notifications on %s', (kind) => {
  let t: TestApp;
  let chat: Awaited<ReturnType<typeof httpReceiver>>;
  let inbox: Awaited<ReturnType<typeof smtpInbox>>;

  beforeAll(async () => {
    chat = await httpReceiver();
    inbox = await smtpInbox();
    t = await createTestApp(kind, {}, { ...LOCAL_RECEIVERS, smtp: inbox.smtp }, { detect: true });
  });
  afterAll(async () => {
    await t.close();
    await chat.close();
    await inbox.close();
  });

  const newAccount = async (notifications: object) => {
    const fixture = await reportFixtureAccount(t, RATES);
    await t.call(fixture.account.adminKey, {
      method: 'PUT',
      url: '/settings/notifications',
      payload: notifications,
    });
    return fixture;
  };
  const postsTo = (path: string) => chat.posts.filter((post) => post.path === path);
  const mailTo = (address: string) => inbox.messages.filter((message) => message.to.includes(address));

  it('tells nothing of an imported history, exactly once of a churn after it, and nothing when detected again', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await newAccount({
      chat: {
        enabled: true,
        events: ['new_customer', 'expansion', 'contraction', 'churn', 'reactivation', 'scheduled_churn'],
        slack_webhook_url: `${chat.url}/import-slack`,
        teams_webhook_url: `${chat.url}/import-teams`,
      },
    });
    // Two years of history: 200 customers starting every 3 days from 2024-11-24, every third
    // ended 30 to 429 days later (never after today); one started yesterday, one ended today.
    const customers = Array.from({ length: 200 }, (_, i) => customer(`c${i}`, `Customer ${i}`));
    const subscriptions = customers.map((_, i) => {
      const start = isoDay('2024-11-24', i * 3);
      const end = i % 3 === 0 ? isoDay(start, 30 + ((i * 7) % 400)) : undefined;
      return subscription(
        `s${i}`,
        `c${i}`,
        start,
        1000 + i * 10,
        end && end < '2026-11-23' ? end : undefined,
      );
    });
    customers.push(customer('yesterday', 'Yesterday'), customer('today', 'Today'));
    subscriptions.push(
      subscription('s_yesterday', 'yesterday', '2026-11-22', 500),
      subscription('s_today', 'today', '2026-06-01', 700, '2026-11-23'),
    );
    await post('/data/customers', customers);
    await post('/data/subscriptions', subscriptions);
    await t.services.notifications.settled();

    expect(postsTo('/import-slack')).toEqual([]);
    expect(postsTo('/import-teams')).toEqual([]);
    const recorded = await t.services.notifications.recordedEvents(account.id);
    // Recorded as history: the last 35 days' events, yesterday's and today's among them.
    expect(recorded.map((event) => event.key)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^churn:.*:today:2026-11-23$/),
        expect.stringMatching(/^new_customer:.*:yesterday:2026-11-22$/),
      ]),
    );
    expect(recorded.filter((event) => event.published)).toEqual([]);

    // A day later customer c5 (MRR 1000 + 5 * 10 = 1050) cancels.
    t.clock.set('2026-11-24T12:00:00.000Z');
    const cancel = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/subscriptions/s5',
      payload: { status: 'canceled', ended_at: '2026-11-24' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await t.services.notifications.settled();

    const text = 'Churn: Customer 5, -$10.50 (MRR now $0.00) on 2026-11-24';
    expect(postsTo('/import-slack').map((post) => post.body)).toEqual([
      { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
    ]);
    expect(postsTo('/import-teams').map((post) => post.body)).toEqual([
      { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: text, text },
    ]);

    expect(await t.services.notifications.detectAndPublish(account.id)).toEqual([]);
    expect(postsTo('/import-slack')).toHaveLength(1);
    expect(postsTo('/import-teams')).toHaveLength(1);
  });

  it('records failed payments and recoveries of the last 35 days only, each once', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await newAccount({});
    await post('/data/customers', [customer('payer', 'Payer')]);
    const pay = (id: string, date: string, result: string, type = 'payment') => ({
      id,
      date,
      type,
      result,
      amount: 1000,
    });
    const invoice = (id: string, transactions: object[]) => ({
      id,
      customer_id: 'payer',
      date: '2026-07-01',
      currency: 'usd',
      amount: 1000,
      transactions,
    });
    // Detection looks from 2026-11-23 - 35 days = 2026-10-19 on.
    await post('/data/invoices', [
      invoice('failed', [pay('a1', '2026-11-01T10:00:00Z', 'failed')]),
      invoice('recovered-late', [
        pay('b1', '2026-09-01T10:00:00Z', 'failed'),
        pay('b2', '2026-11-05T10:00:00Z', 'successful'),
      ]),
      invoice('old', [
        pay('c1', '2026-08-01T10:00:00Z', 'failed'),
        pay('c2', '2026-08-05T10:00:00Z', 'successful'),
      ]),
      invoice('refund-failed', [
        pay('d1', '2026-11-02T10:00:00Z', 'successful'),
        pay('d2', '2026-11-03T10:00:00Z', 'failed', 'refund'),
      ]),
      invoice('paid', [pay('e1', '2026-11-04T10:00:00Z', 'successful')]),
      invoice('eve', [pay('g1', '2026-10-18T23:59:00Z', 'failed')]),
      invoice('first-day', [pay('h1', '2026-10-19T00:01:00Z', 'failed')]),
      invoice('retried', [
        pay('f1', '2026-11-10T10:00:00Z', 'failed'),
        pay('f2', '2026-11-11T10:00:00Z', 'failed'),
        pay('f3', '2026-11-12T10:00:00Z', 'successful'),
      ]),
    ]);
    await t.services.notifications.settled();
    await t.services.notifications.detectAndPublish(account.id);

    const payments = (await t.services.notifications.recordedEvents(account.id))
      .filter((event) => event.kind === 'failed_payment' || event.kind === 'payment_recovered')
      .map((event) => `${event.kind} ${event.key.split(':').at(-1)} ${event.occurredOn}`);
    // The first failure and the first success after it, when either falls in the window: not the
    // second failure of 'retried', nor a failed refund, nor 'old' and 'eve' before the window.
    expect(payments.sort()).toEqual([
      'failed_payment failed 2026-11-01',
      'failed_payment first-day 2026-10-19',
      'failed_payment retried 2026-11-10',
      'payment_recovered recovered-late 2026-11-05',
      'payment_recovered retried 2026-11-12',
    ]);
  });

  it('posts only the event kinds chosen, to the chat systems with a URL', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await newAccount({
      chat: { enabled: true, events: ['new_customer'], slack_webhook_url: `${chat.url}/kinds-slack` },
    });
    await post('/data/customers', [customer('a', 'Alpha'), customer('b', 'Beta')]);
    await post('/data/subscriptions', [subscription('a1', 'a', '2026-06-01', 2000)]);
    await t.services.notifications.settled();

    t.clock.set('2026-11-24T12:00:00.000Z');
    // Beta is new (3000); Alpha expands by 500.
    await post('/data/subscriptions', [
      subscription('b1', 'b', '2026-11-24', 3000),
      subscription('a2', 'a', '2026-11-24', 500),
    ]);
    await t.services.notifications.settled();

    expect(postsTo('/kinds-slack').map((post) => post.body.text)).toEqual([
      'New customer: Beta, +$30.00 (MRR now $30.00) on 2026-11-24',
    ]);
    // The expansion is news all the same (outbound webhooks get it), only not for this chat.
    const published = (await t.services.notifications.recordedEvents(account.id)).filter(
      (event) => event.published,
    );
    expect(published.map((event) => [event.kind, event.occurredOn])).toEqual([
      ['expansion', '2026-11-24'],
      ['new_customer', '2026-11-24'],
    ]);
  });

  it('mails the weekly digest once, from 08:00 UTC (no owner, no time zone), with the figures of the MRR report and movement table', async () => {
    t.clock.set('2026-11-20T12:00:00.000Z');
    const { account, post } = await newAccount({
      email: { enabled: true, recipients: ['cfo@example.test'], frequency: 'weekly' },
    });
    await post('/data/customers', [
      customer('d1', 'Delta'),
      customer('d2', 'Echo'),
      customer('d3', 'Foxtrot'),
    ]);
    // Before the week of Nov 16: Delta 100.00 and Echo 40.00, so 140.00. In it: Echo churns on
    // the 18th (-40.00), Foxtrot is new on the 17th (+25.00), Delta expands on the 20th (+10.00).
    // At its end: 140 - 40 + 25 + 10 = 135.00.
    await post('/data/subscriptions', [
      subscription('d1a', 'd1', '2026-10-01', 10_000),
      subscription('d2a', 'd2', '2026-10-01', 4000, '2026-11-18'),
      subscription('d3a', 'd3', '2026-11-17', 2500),
      subscription('d1b', 'd1', '2026-11-20', 1000),
    ]);

    // Monday Nov 23: before 08:00 the week before is still the one due (a digest missed on its
    // Monday goes out until the next turns due); from 08:00 the week just ended, once.
    t.clock.set('2026-11-23T07:59:59.000Z');
    await t.services.notifications.sendDueDigests();
    expect(mailTo('cfo@example.test').map((mail) => mail.subject)).toEqual([
      'Revenue digest for Test account: 2026-11-09 to 2026-11-15',
    ]);

    t.clock.set('2026-11-23T08:00:00.000Z');
    await t.services.notifications.sendDueDigests();
    await t.services.notifications.sendDueDigests();
    const mails = mailTo('cfo@example.test').slice(1);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Revenue digest for Test account: 2026-11-16 to 2026-11-22',
    ]);

    const report = await t.read(account.viewerKey, '/reports/mrr?date=20261116-20261122&interval=week');
    const row = report.result[0];
    expect([row.total_mrr - row.mrr_diff, row.total_mrr, row.new, row.expansion, row.churn]).toEqual([
      14_000, 13_500, 2500, 1000, -4000,
    ]);
    const table = await t.read(
      account.viewerKey,
      '/reports/movement-table?date=20261116-20261122&sort=mrr_change&order=asc',
    );
    expect(
      table.result.list.map((item: { customer_name: string; mrr_change_base_currency: number }) => [
        item.customer_name,
        item.mrr_change_base_currency,
      ]),
    ).toEqual([
      ['Echo', -4000],
      ['Delta', 1000],
      ['Foxtrot', 2500],
    ]);
    expect(mails[0]!.text).toBe(
      [
        'Test account: revenue weekly digest, 2026-11-16 to 2026-11-22',
        '',
        'MRR at start: $140.00',
        'MRR at end: $135.00',
        'Change: -$5.00',
        '',
        'Movements (amount, customers):',
        '  New: +$25.00, 1',
        '  Expansion: +$10.00, 1',
        '  Contraction: $0.00, 0',
        '  Churn: -$40.00, 1',
        '  Reactivation: $0.00, 0',
        '',
        'Largest changes:',
        '  Echo: Churn -$40.00',
        '  Foxtrot: New +$25.00',
        '  Delta: Expansion +$10.00',
        '',
      ].join('\n'),
    );
    expect(mails[0]!.html).toContain('<tr><td>MRR at start</td><td>$140.00</td></tr>');
    expect(mails[0]!.html).toContain('<tr><td>Echo</td><td>Churn</td><td>-$40.00</td></tr>');
  });

  it('alerts once when a threshold is crossed, by email and chat, and not while the measure stays above it', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await newAccount({
      email: { enabled: true, recipients: ['alerts@example.test'], frequency: 'daily' },
      chat: { enabled: true, events: [], slack_webhook_url: `${chat.url}/alerts-slack` },
      alerts: { churn_threshold: 5000, mrr_drop_threshold: 10 },
    });
    await post('/data/customers', [customer('g', 'Golf'), customer('h', 'Hotel')]);
    await post('/data/subscriptions', [
      subscription('g1', 'g', '2026-10-01', 10_000),
      subscription('h1', 'h', '2026-10-01', 4000),
    ]);
    await t.services.notifications.settled();
    expect(mailTo('alerts@example.test')).toEqual([]);

    // Nov 24: Golf churns 100.00 > 50.00; MRR falls (140 - 40) / 140 = 71.4% > 10%.
    t.clock.set('2026-11-24T12:00:00.000Z');
    await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/subscriptions/g1',
      payload: { status: 'canceled', ended_at: '2026-11-24' },
    });
    await t.services.notifications.settled();
    const churn = 'Churn alert: $100.00 of MRR churned on 2026-11-24, above the threshold of $50.00';
    const drop = 'MRR drop alert: MRR fell 71.4% on 2026-11-24, above the threshold of 10%';
    expect(mailTo('alerts@example.test').map((mail) => [mail.subject, mail.text])).toEqual([
      ['Churn alert', `${churn}\n`],
      ['MRR drop alert', `${drop}\n`],
    ]);
    expect(postsTo('/alerts-slack').map((post) => post.body.text)).toEqual([churn, drop]);

    // Judged again the same day: nothing more.
    expect(await t.services.notifications.evaluateAlerts(account.id)).toEqual([]);

    // Nov 25: Hotel churns 40.00, not above 50.00; MRR falls 100%, but it was above 10% the
    // day before too: still above, not crossing.
    t.clock.set('2026-11-25T12:00:00.000Z');
    await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/subscriptions/h1',
      payload: { status: 'canceled', ended_at: '2026-11-25' },
    });
    await t.services.notifications.settled();
    expect(await t.services.notifications.evaluateAlerts(account.id)).toEqual([]);
    expect(mailTo('alerts@example.test')).toHaveLength(2);
    expect(postsTo('/alerts-slack')).toHaveLength(2);
  });

  it('without a runner, a chat that fails loses its message and the other chat still gets it', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await newAccount({
      chat: {
        enabled: true,
        events: ['new_customer'],
        slack_webhook_url: `${chat.url}/down-slack`,
        teams_webhook_url: `${chat.url}/up-teams`,
      },
    });
    chat.state.failing.add('/down-slack');
    await post('/data/customers', [customer('k', 'Kilo'), customer('l', 'Lima')]);
    await post('/data/subscriptions', [subscription('k1', 'k', '2026-06-01', 1000)]);
    await t.services.notifications.settled();
    t.clock.set('2026-11-24T12:00:00.000Z');
    await post('/data/subscriptions', [subscription('l1', 'l', '2026-11-24', 1200)]);
    await t.services.notifications.settled();

    const text = 'New customer: Lima, +$12.00 (MRR now $12.00) on 2026-11-24';
    expect(postsTo('/down-slack').map((post) => post.body.text)).toEqual([text]);
    expect(postsTo('/up-teams').map((post) => post.body.text)).toEqual([text]);
    const recorded = await t.services.notifications.recordedEvents(account.id);
    expect(recorded.filter((event) => event.published).map((event) => event.key)).toEqual([
      expect.stringMatching(/^new_customer:.*:l:2026-11-24$/),
    ]);
  });

  it('keeps a failed chat delivery retryable: the job fails, and a new attempt posts it', async () => {
    const job = { accountId: '', system: 'slack' as const, text: 'retry me' };
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account } = await newAccount({
      chat: { enabled: true, slack_webhook_url: `${chat.url}/failing` },
    });
    job.accountId = account.id;
    chat.state.status = 500;
    await expect(t.services.notifications.deliverChat(job)).rejects.toThrow(
      'slack webhook answered 500: failed',
    );
    chat.state.status = 200;
    await t.services.notifications.deliverChat(job);
    expect(postsTo('/failing').map((post) => post.body.text)).toEqual(['retry me', 'retry me']);
  });
});
