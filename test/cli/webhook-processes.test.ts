import { afterEach, describe, expect, it } from 'vitest';
import type { RevenueEvent } from '../../src/engine/revenue-event.js';
import { jobDefinitions } from '../../src/jobs/index.js';
import { createJobRunner } from '../../src/jobs/job-runner.js';
import { systemClock } from '../../src/services/clock.js';
import { createServices } from '../../src/services/index.js';
import type { RetryPolicy } from '../../src/jobs/job-queue.js';
import { openStore } from '../../src/store/open-store.js';
import { type ServerProcess, startServer, stopServer, storeEnv } from '../helpers/server-process.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function churn(accountId: string, n: number): RevenueEvent {
  return {
    key: `churn:c${n}`,
    kind: 'churn',
    accountId,
    customer: { id: `c${n}`, name: null, email: null },
    occurredAt: '2026-11-20',
    amount: -1000,
    mrr: 0,
    currency: 'usd',
  };
}

/**
 * Queues `events` churn deliveries to the receiver from this test process, as a server would,
 * with a runner that only sends: the servers started afterwards run them.
 */
async function queueDeliveries(location: TestLocation, url: string, events: number, retry: RetryPolicy) {
  const store = await openStore(location.location);
  const runner = createJobRunner(store, { workers: false });
  try {
    const services = createServices(store, systemClock, {
      jobs: runner.sender,
      webhooks: { retry },
      outbound: { allowPrivate: true },
    });
    await runner.start(jobDefinitions(services));
    const { account } = await services.accounts.create({ name: 'Webhooks' });
    const webhook = await services.webhooks.create(account.id, { url, event_type: 'movement.churn' });
    await services.webhooks.publish(Array.from({ length: events }, (_, n) => churn(account.id, n)));
    return { accountId: account.id, webhookId: webhook.id };
  } finally {
    await runner.stop();
    await store.close();
  }
}

describe.each(STORE_KINDS)('webhook deliveries across server processes on %s', (kind) => {
  let location: TestLocation;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0)) if (server.child.exitCode === null) await stopServer(server);
    await receiver.close();
    await location.drop();
  });

  it('loses no delivery to a kill -9 between attempts', async () => {
    location = await createTestLocation(kind);
    receiver = await startReceiver((n) => (n <= 2 ? 500 : 200));
    // Retries after 2 to 4 s, then 4 to 8 s: time for the kill and the restart in between.
    const { accountId, webhookId } = await queueDeliveries(location, receiver.url, 1, {
      limit: 5,
      delaySeconds: 2,
    });
    const env = { ...storeEnv(location), OUTBOUND_ALLOW_PRIVATE: 'true' };
    const first = await startServer(env);
    servers.push(first);
    await until(() => receiver.received.length === 1, 60_000);
    // The failed attempt is logged and the job set to retry within moments of the answer.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await startServer(env);
    servers.push(second);
    await until(() => receiver.accepted().length === 1, 90_000);
    expect((await stopServer(second)).code).toBe(0);
    expect(receiver.received.map((request) => request.status)).toEqual([500, 500, 200]);

    const store = await openStore(location.location);
    try {
      const [delivery] = await store.webhooks.recentDeliveries(accountId, webhookId, 10);
      expect(delivery).toMatchObject({
        event_key: 'churn:c0',
        status: 'delivered',
        attempts: 3,
        last_status: 200,
      });
    } finally {
      await store.close();
    }
  }, 240_000);

  it.runIf(kind === 'postgres')(
    'delivers each of 20 queued events once with two servers on one database',
    async () => {
      location = await createTestLocation(kind);
      receiver = await startReceiver();
      const env = { ...storeEnv(location), OUTBOUND_ALLOW_PRIVATE: 'true' };
      // The schema first, then both servers, then the jobs: both are polling when they arrive.
      await queueDeliveries(location, 'https://unused.example', 0, { limit: 1, delaySeconds: 1 });
      servers.push(await startServer(env), await startServer(env));
      await queueDeliveries(location, receiver.url, 20, { limit: 1, delaySeconds: 1 });
      await until(() => receiver.accepted().length >= 20, 60_000);
      // Time for any second delivery of the same job to show.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const ids = receiver.accepted().map((body) => body.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
      expect(new Set(receiver.accepted().map((body) => (body.data.customer as { id: string }).id)).size).toBe(
        20,
      );
    },
    240_000,
  );
});
