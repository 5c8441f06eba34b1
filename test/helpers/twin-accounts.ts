import { expect } from 'vitest';
import type { TestAccount, TestApp } from './app.js';

/**
 * What sets one of two twin accounts apart. Both hold the same external ids (customers c1-c3,
 * plans, invoices inv_1-inv_6, subscriptions sub_1-sub_2, a "Billing" data source, a plan group
 * and a segment); names, emails, custom variable values and amounts differ, so any of them
 * showing in the other account's responses is a leak.
 */
export interface Flavour {
  /** Starts every name; its lower case starts every email domain and custom variable value. */
  name: string;
  /** Monthly price of plan basic, which c1 pays from Sep 1, in cents. */
  basic: number;
  /** Monthly price of plan pro, which c2 pays from Oct 1. */
  pro: number;
  /** A one-time invoice of c2, due Nov 5 and unpaid. */
  open: number;
  /** Refunded on c2's November invoice. */
  refund: number;
}

/** No figure of one account's reports equals an amount of the other's, so each amount is a marker. */
export const ALPHA: Flavour = { name: 'Alpha', basic: 31_415, pro: 27_182, open: 16_180, refund: 14_142 };
export const BRAVO: Flavour = { name: 'Bravo', basic: 4_242, pro: 5_151, open: 2_929, refund: 3_737 };

/** An account seeded with its flavour, and the ids the service generated for it. */
export interface TwinAccount extends TestAccount {
  flavour: Flavour;
  /** The default "API" source the records went to. */
  apiSource: string;
  /** An empty csv source named "Billing" in both accounts. */
  billingSource: string;
  planGroup: string;
  segment: string;
  /** A webhook for churn to a URL of the flavour's own domain. */
  webhook: string;
  /** Two uploads of plans into the "Billing" source: one to read and map, one to import. */
  uploads: { mapped: string; imported: string };
  keyIds: string[];
  memberId: string;
}

const PLAN_IDS = ['basic', 'pro', 'legacy', 'archived'] as const;

const month = (start: string, end: string) => ({ period_start: start, period_end: end });
const paid = (id: string, date: string, amount: number) => ({
  id,
  date,
  type: 'payment',
  result: 'successful',
  amount,
  payment_method: 'card',
});

/** A paid invoice with one subscription line of `amount` for the month from `start`. */
function monthlyInvoice(
  id: string,
  customer: string,
  plan: string,
  subscription: string,
  [start, end]: [string, string],
  amount: number,
  transactions: object[] = [paid(`${id}_t1`, start, amount)],
) {
  return {
    id,
    customer_id: customer,
    currency: 'usd',
    date: start,
    lines: [{ plan_id: plan, subscription_id: subscription, amount, ...month(start, end) }],
    transactions,
  };
}

const SEPTEMBER: [string, string] = ['2026-09-01', '2026-10-01'];
const OCTOBER: [string, string] = ['2026-10-01', '2026-11-01'];
const NOVEMBER: [string, string] = ['2026-11-01', '2026-12-01'];

function invoicesOf(f: Flavour) {
  return [
    monthlyInvoice('inv_1', 'c1', 'basic', 'sub_1', SEPTEMBER, f.basic),
    monthlyInvoice('inv_2', 'c1', 'basic', 'sub_1', OCTOBER, f.basic),
    monthlyInvoice('inv_3', 'c1', 'basic', 'sub_1', NOVEMBER, f.basic),
    // The first attempt failed, the retry three days later paid.
    monthlyInvoice('inv_4', 'c2', 'pro', 'sub_2', OCTOBER, f.pro, [
      { ...paid('inv_4_t1', '2026-10-01', f.pro), result: 'failed' },
      paid('inv_4_t2', '2026-10-04', f.pro),
    ]),
    monthlyInvoice('inv_5', 'c2', 'pro', 'sub_2', NOVEMBER, f.pro, [
      paid('inv_5_t1', '2026-11-01', f.pro),
      { ...paid('inv_5_t2', '2026-11-10', f.refund), type: 'refund' },
    ]),
    openInvoice(f.open),
  ];
}

/** c2's unpaid one-time invoice. */
export function openInvoice(amount: number) {
  return {
    id: 'inv_6',
    customer_id: 'c2',
    currency: 'usd',
    date: '2026-10-25',
    due_date: '2026-11-05',
    status: 'open',
    lines: [{ type: 'one_time', description: 'Onboarding', amount }],
  };
}

/** Posts items to a bulk route that reports per item, failing unless every item was stored. */
async function importAll(t: TestApp, key: string, url: string, items: object[]): Promise<void> {
  const response = await t.seed(key, url, items);
  const statuses = response.json<{ result: { import_status: string }[] }>().result;
  expect(statuses, response.body).toEqual(
    items.map(() => expect.objectContaining({ import_status: 'inserted' })),
  );
}

export async function seedTwin(t: TestApp, f: Flavour): Promise<TwinAccount> {
  const lower = f.name.toLowerCase();
  const account = await t.newAccount(`${f.name} Analytics`);
  const key = account.adminKey;
  const post = async (url: string, payload: object) =>
    (await t.seed(key, url, payload)).json<{ id: string }>();

  const billingSource = (await post('/data/data-sources', { name: 'Billing', type: 'csv' })).id;
  await importAll(
    t,
    key,
    '/data/plans',
    PLAN_IDS.map((id) => ({
      id,
      name: `${f.name} ${id}`,
      billing_freq: 'month',
      currency: 'usd',
      product_name: `${f.name} Suite`,
    })),
  );
  await post('/data/customers', [
    {
      id: 'c1',
      name: `${f.name} Corp`,
      email: `ap@${lower}.example`,
      country: 'US',
      state: 'ca',
      currency: 'usd',
      created_date: '2026-06-01',
      custom_variables: { industry: `${lower}-fintech` },
    },
    {
      id: 'c2',
      name: `${f.name} Labs`,
      email: `finance@${lower}.example`,
      country: 'DE',
      currency: 'usd',
      created_date: '2026-09-20',
      custom_variables: { industry: `${lower}-health` },
    },
    {
      id: 'c3',
      name: `${f.name} Trial`,
      email: `trial@${lower}.example`,
      country: 'FR',
      created_date: '2026-11-10',
      trial_started: '2026-11-10',
      trial_end_date: '2026-11-24',
    },
  ]);
  await importAll(t, key, '/data/invoices', invoicesOf(f));
  await importAll(t, key, '/data/subscriptions', [
    // Asked on Nov 1 to cancel on Jan 15: scheduled churn.
    {
      id: 'sub_1',
      customer_id: 'c1',
      plan_id: 'basic',
      started_at: '2026-09-01',
      cancel_requested_at: '2026-11-01',
      cancel_at: '2027-01-15',
    },
    { id: 'sub_2', customer_id: 'c2', plan_id: 'pro', started_at: '2026-10-01' },
  ]);
  const planGroup = (await post('/data/plan-groups', { name: `${f.name} Core`, plans: ['basic', 'pro'] })).id;
  const segment = (
    await post('/data/segments', {
      name: `${f.name} Core customers`,
      description: `${f.name} fintech customers on the core plans`,
      filters: { plan: planGroup, industry: `${lower}-fintech` },
    })
  ).id;
  const webhook = (
    await post('/integrations/webhooks', {
      url: `https://hooks.${lower}.example/revenue`,
      event_type: 'movement.churn',
    })
  ).id;
  const settings = await t.call(key, {
    method: 'PUT',
    url: '/settings/notifications',
    payload: {
      email: { enabled: true, recipients: [`cfo@${lower}.example`] },
      chat: { channel: `#${lower}-revenue` },
      alerts: { churn_threshold: f.basic },
    },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const member = await t.services.team.add(account.id, {
    email: `owner@${lower}.example`,
    name: `${f.name} Owner`,
    role: 'owner',
  });
  await t.services.apiKeys.create(account.id, { name: `${f.name} dashboard`, accessLevel: 'viewer' });
  const upload = async () => {
    const response = await t.call(key, {
      method: 'POST',
      url: `/data/uploads?kind=plans&data_source=${billingSource}`,
      headers: { 'content-type': 'text/csv' },
      payload: `id,name,billing_freq,currency\nuploaded,${f.name} uploaded,month,usd\n`,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const uploads = { mapped: await upload(), imported: await upload() };
  const sources = await t.services.dataSources.list(account.id, 'api');
  return {
    ...account,
    flavour: f,
    apiSource: sources[0]!.id,
    billingSource,
    planGroup,
    segment,
    webhook,
    uploads,
    keyIds: (await t.services.apiKeys.list(account.id)).map((apiKey) => apiKey.id),
    memberId: member.id,
  };
}

/**
 * Patterns of what only this account holds: its names, email domains and custom variable
 * values (all carry the flavour's name in some case), its amounts as JSON numbers, and every
 * id the service generated for it.
 */
export function markersOf(account: TwinAccount): RegExp[] {
  const f = account.flavour;
  const amounts = [f.basic, f.pro, f.open, f.refund, f.basic + f.pro];
  const ids = [
    account.id,
    account.apiSource,
    account.billingSource,
    account.planGroup,
    account.segment,
    account.webhook,
    account.uploads.mapped,
    account.uploads.imported,
    account.memberId,
    ...account.keyIds,
  ];
  return [
    new RegExp(f.name, 'i'),
    ...amounts.map((amount) => new RegExp(`[:,[]${amount}[,\\]}]`)),
    ...ids.map((id) => new RegExp(id, 'i')),
  ];
}
