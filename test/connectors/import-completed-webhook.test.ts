import { afterEach, describe, expect, it } from 'vitest';
import { connectorRegistry } from '../../src/connectors/connector.js';
import { createTestApp, LOCAL_RECEIVERS, TEST_NOW, type TestApp } from '../helpers/app.js';
import { expectConnected, newSource, SECRETS_KEY } from '../helpers/connector-tests.js';
import { scriptedConnector } from '../helpers/scripted-connector.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const RECORDS = {
  customers: [{ id: 'cus_1', name: 'Customer 1' }],
  plans: [{ id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' }],
  subscriptions: [],
  invoices: [],
};

describe.each(STORE_KINDS)('data_source.import_completed on %s', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  afterEach(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('is delivered once when a connector import finishes, and again after a full import', async () => {
    t = await createTestApp(
      kind,
      {},
      {
        ...LOCAL_RECEIVERS,
        connectors: connectorRegistry([scriptedConnector({ records: RECORDS, pageSize: 10 })]),
        secretsKey: SECRETS_KEY,
      },
      { jobs: { pollingIntervalSeconds: 0.5, onError: () => {} } },
    );
    receiver = await startReceiver();
    const account = await t.newAccount();
    await t.seed(account.adminKey, '/integrations/webhooks', {
      url: receiver.url,
      event_type: 'data_source.import_completed',
    });
    const id = await newSource(t, account, { name: 'Books', type: 'processor-a' });
    await expectConnected(t, account, id, { api_key: 'rk_test_1' });
    await t.services.imports.settled(account.id, id);
    const deadline = Date.now() + 20_000;
    while (receiver.accepted().length < 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(receiver.accepted()).toEqual([
      {
        id: expect.any(String),
        type: 'data_source.import_completed',
        created_at: TEST_NOW,
        data: { data_source: { id, name: 'Books', type: 'processor-a' }, finished_at: TEST_NOW },
      },
    ]);

    // Another run of the same source is another event.
    const again = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/full-import`,
    });
    expect(again.statusCode, again.body).toBe(200);
    await t.services.imports.settled(account.id, id);
    while (receiver.accepted().length < 2 && Date.now() < deadline + 20_000)
      await new Promise((r) => setTimeout(r, 100));
    expect(receiver.accepted()).toHaveLength(2);
    expect(new Set(receiver.accepted().map((body) => body.id)).size).toBe(2);
    // A PGlite store, two imports and the deliveries: past the default 30 s on busy cores.
  }, 120_000);
});
