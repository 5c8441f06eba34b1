import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  type Connector,
  type ConnectorCredentials,
  connectorRegistry,
} from '../../src/connectors/connector.js';
import type { RetryPolicy } from '../../src/connectors/retry.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { StoreKind } from '../../src/store/db.js';
import { createTestApp, type TestAccount, type TestApp } from './app.js';
import { type Customer, dataRecords } from './stripe-account.js';

// What the connector tests (test/connectors/processor-*.test.ts) share: the fixtures around a
// billing system's fake server, and the checks that differ only in which system they are run on.

/** The day the generated accounts are generated up to. */
export const TODAY = '2026-11-23';
export const MRR_URL = '/reports/mrr?date=20251101-20261122&interval=month';
/** The key the connectors' test apps seal credentials with. */
export const SECRETS_KEY = randomBytes(32);

/**
 * Retries without waiting, so fault tests stay fast, noting the delays asked for in `waits`; the
 * delays themselves are unit-tested in retry.test.ts.
 */
export function noWait(
  options: { attempts?: number; maxDelayMs?: number; waits?: number[] } = {},
): RetryPolicy {
  const { attempts = 4, maxDelayMs = 0, waits } = options;
  return {
    attempts,
    baseDelayMs: 0,
    maxDelayMs,
    random: () => 0,
    sleep: (ms) => {
      waits?.push(ms);
      return Promise.resolve();
    },
  };
}

/** Four attempts, no waiting. */
export const NO_WAIT = noWait();

/** A connector's API settings pointing at a fake server on this machine, with `extra` over them. */
export function localApi<S extends object = object>(
  fake: { url: URL },
  extra?: S,
): { host: string; port: number; protocol: 'http' } & S {
  return { host: '127.0.0.1', port: Number(fake.url.port), protocol: 'http', ...(extra as S) };
}

/** A test app with the one connector, sealing with SECRETS_KEY. */
export function connectorApp(kind: StoreKind, connector: Connector): Promise<TestApp> {
  return createTestApp(kind, {}, { connectors: connectorRegistry([connector]), secretsKey: SECRETS_KEY });
}

/** Posts the customers' /data/* twin (`dataRecords`) into the account. */
export async function seedPosted(t: TestApp, account: TestAccount, customers: readonly Customer[]) {
  const records = dataRecords(customers);
  for (const [path, items] of Object.entries(records)) await t.seed(account.adminKey, `/data/${path}`, items);
}

/**
 * The app of a full-import test: an account to import into ("Imported"), and one with the same
 * customers posted through /data ("Posted") to compare with.
 */
export async function importAndPosted(
  kind: StoreKind,
  connector: Connector,
  customers: readonly Customer[],
): Promise<{ t: TestApp; imported: TestAccount; posted: TestAccount }> {
  const t = await connectorApp(kind, connector);
  const imported = await t.newAccount('Imported');
  const posted = await t.newAccount('Posted');
  await seedPosted(t, posted, customers);
  return { t, imported, posted };
}

/** Creates a data source of the connector's type and returns its id. */
export async function newSource(
  t: TestApp,
  account: TestAccount,
  source: { name: string; type: string },
): Promise<string> {
  return (await t.seed(account.adminKey, '/data/data-sources', source)).json<{ id: string }>().id;
}

/** POSTs the payload to the source's /connect route, as the account's admin. */
export function connect(t: TestApp, account: TestAccount, id: string, payload: object) {
  return t.call(account.adminKey, { method: 'POST', url: `/data/data-sources/${id}/connect`, payload });
}

/** Connects the source through the route and checks it was accepted. */
export async function expectConnected(t: TestApp, account: TestAccount, id: string, payload: object) {
  const connected = await connect(t, account, id, payload);
  expect(connected.statusCode, connected.body).toBe(200);
}

/** Connects the source through the route and checks the 400 and its exact error. */
export async function expectConnectRefused(
  t: TestApp,
  account: TestAccount,
  id: string,
  payload: object,
  error: string,
) {
  const response = await connect(t, account, id, payload);
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ error });
}

/** The imported account's MRR month by month is the posted one's: a year of a large book. */
export async function expectSameMrr(t: TestApp, imported: TestAccount, posted: TestAccount) {
  const fromSystem = await t.read(imported.adminKey, MRR_URL);
  const fromApi = await t.read(posted.adminKey, MRR_URL);
  expect(fromSystem).toEqual(fromApi);
  expect(fromApi.result.at(-1).total_mrr).toBeGreaterThan(1_000_000);
  expect(fromApi.result.length).toBe(13);
}

/** MRR month by month into the next year, counting what is scheduled after today. */
export const COMMITTED_MRR_URL = '/reports/mrr?date=20251101-20271130&interval=month&committed=true';

type SubscriptionRow = { quantity: number; scheduled_changes: unknown[] };

/**
 * A customer's subscription records as quantity and scheduled changes, in a set order (their
 * ids and add-ons' plan ids are the system's: a Recurly add-on's plan is `<plan>:<add-on>`).
 */
async function subscriptionsOf(t: TestApp, account: TestAccount, customerId: string) {
  const { list } = (await t.read(account.adminKey, `/data/subscriptions?customer=${customerId}&limit=100`))
    .result as { list: SubscriptionRow[] };
  return list
    .map(({ quantity, scheduled_changes }) => ({ quantity, scheduled_changes }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/**
 * The records of the customers with changes to come (`changed`) carry the posted ones'
 * quantities and scheduled changes, and the committed MRR of the account into next year is the posted one's.
 */
export async function expectSameCommittedMrr(
  t: TestApp,
  imported: TestAccount,
  posted: TestAccount,
  changed: readonly string[],
) {
  expect(changed.length).toBeGreaterThan(0);
  for (const customerId of changed) {
    const records = await subscriptionsOf(t, imported, customerId);
    expect(records.some((record) => record.scheduled_changes.length > 0)).toBe(true);
    expect(records).toEqual(await subscriptionsOf(t, posted, customerId));
  }
  expect(await t.read(imported.adminKey, COMMITTED_MRR_URL)).toEqual(
    await t.read(posted.adminKey, COMMITTED_MRR_URL),
  );
}

/**
 * Runs `body` with services of their own over the app's store (with the connector given, often
 * one pointed at a fake that fails), then closes them and the fake.
 */
export async function withServices(
  t: TestApp,
  fake: { close(): Promise<void> },
  connector: Connector,
  body: (services: Services) => Promise<void>,
): Promise<void> {
  const services = createServices(t.services.store, t.clock, {
    connectors: connectorRegistry([connector]),
    secretsKey: SECRETS_KEY,
  });
  try {
    await body(services);
  } finally {
    await services.imports.close();
    await fake.close();
  }
}

/** A new account with a source connected by key through `services`, its import done. */
export async function importedBy(
  t: TestApp,
  services: Services,
  name: string,
  source: { name: string; type: string },
  credentials: ConnectorCredentials,
): Promise<{ account: TestAccount; id: string }> {
  const account = await t.newAccount(name);
  const id = await newSource(t, account, source);
  await services.imports.connectByKey(account.id, id, credentials);
  await services.imports.settled(account.id, id);
  return { account, id };
}

/**
 * A fake whose answers to `path` are all 500: the import stops once its bounded retries (four)
 * are spent, a quarter of the way through, with the system's error as its last.
 */
export async function expectGivesUp(
  t: TestApp,
  options: {
    fake: { fail(...faults: { status: number; path?: string }[]): void; close(): Promise<void> };
    connector: Connector;
    source: { name: string; type: string };
    credentials: ConnectorCredentials;
    path: string;
    lastError: string;
  },
) {
  const { fake, connector, credentials } = options;
  await withServices(t, fake, connector, async (services) => {
    const account = await t.newAccount('Failing');
    const id = await newSource(t, account, options.source);
    const down = { status: 500, path: options.path };
    fake.fail(down, down, down, down);
    await services.imports.connectByKey(account.id, id, credentials);
    await services.imports.settled(account.id, id);
    expect(await services.imports.progress(account.id, id)).toMatchObject({
      phase: 'error',
      percent: 25,
      lastError: options.lastError,
    });
  });
}

/**
 * A source connected by key with a webhook secret, its import done, and its webhook route; the
 * account reports in `baseCurrency` (default usd).
 */
export async function connectedWithWebhooks(
  t: TestApp,
  name: string,
  source: { name: string; type: string },
  credentials: ConnectorCredentials,
  webhookSecret: string,
  baseCurrency?: string,
): Promise<{ account: TestAccount; id: string; hook: string }> {
  const account = await t.newAccount(name, baseCurrency);
  const id = await newSource(t, account, source);
  await t.services.imports.connectByKey(account.id, id, credentials, webhookSecret);
  await t.services.imports.settled(account.id, id);
  return { account, id, hook: `/webhooks/${source.type}/${account.id}/${id}` };
}

/** Posts a webhook payload to a route, with a proof (signature or authorization) or, given null, none. */
export type Deliver = (
  url: string,
  payload: string,
  proof?: string | null,
) => Promise<LightMyRequestResponse>;

/**
 * A webhook delivery as the system sends it: JSON, with its proof in `header`, by default the
 * good one `proofOf` makes. `app` is read at each delivery (a test app made in beforeAll).
 */
export function webhookDelivery(
  app: () => TestApp,
  header: string,
  proofOf: (payload: string) => string,
): Deliver {
  return (url, payload, proof = proofOf(payload)) =>
    app().call(undefined, {
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json', ...(proof === null ? {} : { [header]: proof }) },
    });
}

const customerName = async (t: TestApp, account: TestAccount, id: string): Promise<string> =>
  (await t.read(account.adminKey, `/data/customers/${id}`)).name;

/**
 * Delivers an event about a customer renamed at the system: with each of the `refused` proofs,
 * answered 400 without a call to the system or a change; then well signed, applied, the name
 * read again from the system; then the same event again after another rename there, noted as a
 * duplicate and not applied.
 */
export async function expectRefusedThenAppliedOnce(
  t: TestApp,
  options: {
    deliver: Deliver;
    fake: { requests: string[] };
    refused: (string | null)[];
    account: TestAccount;
    hook: string;
    payload: string;
    customerId: string;
    nameBefore: string;
    renamed: string;
    renameAgain: () => void;
  },
) {
  const { deliver, fake, account, hook, payload, customerId } = options;
  const before = fake.requests.length;
  for (const proof of options.refused) {
    const refused = await deliver(hook, payload, proof);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'Invalid webhook signature' });
  }
  expect(fake.requests.length).toBe(before);
  expect(await customerName(t, account, customerId)).toBe(options.nameBefore);

  const applied = await deliver(hook, payload);
  expect(applied.statusCode, applied.body).toBe(200);
  expect(applied.json()).toEqual({ received: true, outcome: 'applied' });
  expect(await customerName(t, account, customerId)).toBe(options.renamed);

  options.renameAgain();
  const replayed = await deliver(hook, payload);
  expect(replayed.json()).toEqual({ received: true, outcome: 'duplicate' });
  expect(await customerName(t, account, customerId)).toBe(options.renamed);
}

/** What a side of the order test shows: its subscriptions and invoices (without the source) and MRR. */
async function recordsView(t: TestApp, side: { account: TestAccount }) {
  type Row = { id: string; customer_id: string; data_source?: string } & Record<string, unknown>;
  const strip = (list: Row[]): Row[] => list.map(({ data_source, ...rest }) => rest);
  return {
    subscriptions: strip((await t.read(side.account.adminKey, '/data/subscriptions?limit=100')).result.list),
    invoices: strip((await t.read(side.account.adminKey, '/data/invoices?limit=1000')).result.list),
    mrr: await t.read(side.account.adminKey, MRR_URL),
  };
}

export type RecordsView = Awaited<ReturnType<typeof recordsView>>;

/**
 * Delivers the events in order to one source and in reverse to another (each answered 200),
 * checks the in-order side with `expectInOrder`, and that the reversed side shows the same.
 */
export async function expectOrderIndependent(
  t: TestApp,
  deliver: Deliver,
  sides: {
    inOrder: { account: TestAccount; hook: string };
    reversed: { account: TestAccount; hook: string };
  },
  events: string[],
  expectInOrder: (view: RecordsView) => void,
) {
  const { inOrder, reversed } = sides;
  for (const payload of events) expect((await deliver(inOrder.hook, payload)).statusCode).toBe(200);
  for (const payload of [...events].reverse())
    expect((await deliver(reversed.hook, payload)).statusCode).toBe(200);
  const a = await recordsView(t, inOrder);
  expectInOrder(a);
  expect(await recordsView(t, reversed)).toEqual(a);
}

/** POST /customers/{id}/resync, and the customer's new email (changed at the system) is read. */
export async function expectResync(t: TestApp, account: TestAccount, customerId: string, email: string) {
  const response = await t.call(account.adminKey, {
    method: 'POST',
    url: `/customers/${customerId}/resync`,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ message: 'Resync initiated' });
  expect((await t.read(account.adminKey, `/data/customers/${customerId}`)).email).toBe(email);
}

/** An event for a source never connected (so without a webhook secret) is answered 404. */
export async function expectNoWebhooks(
  t: TestApp,
  deliver: Deliver,
  source: { name: string; type: string },
  payload: string,
) {
  const account = await t.newAccount('No hooks');
  const id = await newSource(t, account, source);
  const response = await deliver(`/webhooks/${source.type}/${account.id}/${id}`, payload);
  expect(response.statusCode).toBe(404);
  expect(response.json()).toEqual({ error: `Data source ${id} takes no webhooks` });
}

/** MRR month by month from September to the day before today, in the account's base currency. */
const AUTUMN_MRR_URL = '/reports/mrr?date=20260901-20261122&interval=month';

/**
 * An item worth `itemMrr` a month of one customer's subscription, imported while it was there,
 * is removed at the system (`remove`) and the customer read again (`reread`: the event about it
 * delivered, or a new full import): its record `recordId` ends (`canceled`) at `endedAt`, the
 * end of its last billed period, in November, and /reports/mrr shows September and October as
 * before and November's MRR `itemMrr` lower, one more contraction. Before, the record was active
 * without an end: it carried the item's MRR past its last period.
 */
export async function expectRemovedItemEnds(
  t: TestApp,
  options: {
    account: TestAccount;
    remove: () => Promise<void>;
    reread: () => Promise<void>;
    recordId: string;
    endedAt: string;
    itemMrr: number;
  },
) {
  const { account, recordId, itemMrr } = options;
  const record = () => t.read(account.adminKey, `/data/subscriptions/${recordId}`);
  expect(await record()).toMatchObject({ status: 'active', ended_at: null });
  const before = (await t.read(account.adminKey, AUTUMN_MRR_URL)).result;
  await options.remove();
  await options.reread();
  expect(await record()).toMatchObject({ status: 'canceled', ended_at: options.endedAt, cancel_at: null });
  const after = (await t.read(account.adminKey, AUTUMN_MRR_URL)).result;
  expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
  expect([after[2].total_mrr, after[2].contraction]).toEqual([
    before[2].total_mrr - itemMrr,
    before[2].contraction - itemMrr,
  ]);
}

/** Delivers an event and expects it applied. */
export async function expectApplied(deliver: Deliver, hook: string, payload: string) {
  const applied = await deliver(hook, payload);
  expect(applied.json()).toEqual({ received: true, outcome: 'applied' });
}
