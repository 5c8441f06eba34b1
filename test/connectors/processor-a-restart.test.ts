import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe-server.js';
import { expectResumesAfterKill, restartEnv } from '../helpers/connector-restart.js';
import { generateAccount, stripeData } from '../helpers/stripe-account.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

const API_KEY = 'rk_test_restart';

describe.each(STORE_KINDS)('a Stripe import killed with SIGKILL on %s', (kind) => {
  const customers = generateAccount(250, '2026-11-23', 99);
  let location: TestLocation;
  let fake: FakeStripe;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    location = await createTestLocation(kind);
    // Slow enough that the kill lands in the middle of the invoices.
    fake = await startFakeStripe(stripeData(customers), API_KEY, { latencyMs: 3 });
    env = restartEnv(location, 'STRIPE', fake);
  });
  afterAll(async () => {
    await fake.close();
    await location.drop();
  });

  it('resumes after the restart from its last stored page and ends with the uninterrupted figures', async () => {
    await expectResumesAfterKill({
      env,
      fake,
      customers,
      source: { name: 'Stripe', type: 'processor-a' },
      apiKey: API_KEY,
      // A few invoice pages stored: 400 records past as many as there are customers.
      killPast: async () => customers.length + 400,
      expectResumed(resumed) {
        // Nothing before the invoices was read again, and the invoices went on after a stored page.
        expect(
          resumed.filter(
            (line) => !line.startsWith('GET /v1/invoices') && !line.startsWith('GET /v1/charges'),
          ),
        ).toEqual([]);
        expect(resumed[0]).toMatch(/^GET \/v1\/invoices\?.*starting_after=in_/);
      },
    });
  }, 300_000);
});
