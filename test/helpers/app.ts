import { expect } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/api/app.js';
import { jobDefinitions } from '../../src/jobs/index.js';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from '../../src/jobs/job-runner.js';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type ServiceOptions, type Services } from '../../src/services/index.js';
import type { StoreKind } from '../../src/store/db.js';
import type { Store } from '../../src/store/open-store.js';
import { openTestStore } from './stores.js';

export const TEST_NOW = '2026-11-23T12:00:00.000Z';

/**
 * The service option a test passes when the server must call its local receivers (127.0.0.1):
 * the outbound guard refuses private addresses unless the operator allows them.
 */
export const LOCAL_RECEIVERS = { outbound: { allowPrivate: true } } satisfies ServiceOptions;

/** A monthly USD plan and a monthly EUR plan, the pair most report fixtures bill on. */
export const BASIC_AND_EURO_PLANS = [
  { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
  { id: 'euro', name: 'Euro', billing_freq: 'month', currency: 'eur' },
];

export interface TestAccount {
  id: string;
  adminKey: string;
  viewerKey: string;
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** The store under the services, for state no route sets. */
  store: Store;
  clock: ReturnType<typeof fixedClock>;
  /** The started job runner, for tests that asked for one. */
  jobs: JobRunner | undefined;
  /** A fresh account with one admin and one viewer key, its reports in `baseCurrency` (default usd). */
  newAccount(name?: string, baseCurrency?: string): Promise<TestAccount>;
  /** `inject` with the key as a Bearer token. */
  call(key: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** GETs as the key and returns the JSON body, failing the test unless the answer is 200. */
  read(key: string, url: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests assert on the parsed body
  /** Writes fixture data through the public API, failing the test if the service refuses it. */
  seed(key: string, url: string, payload: unknown): Promise<LightMyRequestResponse>;
  /** Loads exchange rates from ECB-style CSV text (`Date,USD\n2026-11-20,1.25\n`). */
  loadRates(csv: string): Promise<void>;
  /** GETs as the key and asserts a 400 with exactly this error. */
  expectBadRequest(key: string, url: string, error: string): Promise<void>;
  /** The names of the query parameters /openapi.json documents for a GET route. */
  documentedParameters(path: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function createTestApp(
  kind: StoreKind,
  options: AppOptions = {},
  serviceOptions: ServiceOptions = {},
  /**
   * With `jobs`, a job runner runs every job definition (slower to start and stop: opt in).
   * With `detect`, writes ask for revenue-event detection as in production (opt in: each one
   * rebuilds the account's snapshot a moment later, which most tests only wait for).
   */
  testOptions: { jobs?: JobRunnerOptions; detect?: boolean } = {},
): Promise<TestApp> {
  const testStore = await openTestStore(kind);
  const clock = fixedClock(TEST_NOW);
  const jobs = testOptions.jobs ? createJobRunner(testStore.store, testOptions.jobs) : undefined;
  const services = createServices(testStore.store, clock, {
    ...serviceOptions,
    ...(jobs ? { jobs: jobs.sender } : {}),
  });
  await jobs?.start(jobDefinitions(services));
  const app = await buildApp(services, { detectAfterWrites: testOptions.detect === true, ...options });
  const call = (key: string | undefined, injectOptions: InjectOptions) => {
    const headers = { ...injectOptions.headers, ...(key ? { authorization: `Bearer ${key}` } : {}) };
    return app.inject({ ...injectOptions, headers });
  };
  return {
    app,
    services,
    store: testStore.store,
    clock,
    jobs,
    async newAccount(name = 'Test account', baseCurrency?: string) {
      const { account, adminKey } = await services.accounts.create({
        name,
        ...(baseCurrency === undefined ? {} : { baseCurrency }),
      });
      const viewer = await services.apiKeys.create(account.id, { name: 'viewer', accessLevel: 'viewer' });
      return { id: account.id, adminKey: adminKey.key, viewerKey: viewer.key };
    },
    call,
    async read(key, url) {
      const response = await call(key, { method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
    async seed(key, url, payload) {
      const response = await call(key, { method: 'POST', url, payload: payload as object });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response;
    },
    async loadRates(csv) {
      await services.fx.load(new TextEncoder().encode(csv));
    },
    async expectBadRequest(key, url, error) {
      const response = await call(key, { method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error });
    },
    async documentedParameters(path) {
      const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<string, { get: { parameters: { name: string }[] } }>;
      }>();
      return doc.paths[path]!.get.parameters.map((parameter) => parameter.name);
    },
    async close() {
      await services.imports.close();
      await Promise.all([services.spreadsheets.close(), services.uploads.close()]);
      await app.close();
      await services.notifications.settled();
      await services.metrics.settled();
      await services.metrics.stop();
      await jobs?.stop();
      await testStore.dispose();
    },
  };
}

/** The given fields of each row, in order: compact expectations for report rows. */
export function columns(rows: readonly Record<string, unknown>[], ...fields: string[]): unknown[][] {
  return rows.map((row) => fields.map((field) => row[field]));
}

/**
 * A new account of the report fixtures: exchange rates from ECB-style CSV text and the
 * BASIC_AND_EURO_PLANS plans loaded, with `post` writing further records as its admin.
 */
export async function reportFixtureAccount(
  t: TestApp,
  rates: string,
): Promise<{
  account: TestAccount;
  post: (url: string, payload: unknown) => Promise<LightMyRequestResponse>;
}> {
  const account = await t.newAccount();
  await t.loadRates(rates);
  const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
  await post('/data/plans', BASIC_AND_EURO_PLANS);
  return { account, post };
}
