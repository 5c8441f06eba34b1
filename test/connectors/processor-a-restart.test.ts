import { describe, expect, it } from 'vitest';
import { startFakeStripe } from '../fakes/stripe-server.js';
import {
  expectResumesAfterKill,
  pageReads,
  restartAccount,
  restartSystem,
} from '../helpers/connector-restart.js';
import { stripeData } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'rk_test_restart';

describe.each(STORE_KINDS)('a Stripe import killed with SIGKILL on %s', (kind) => {
  const customers = restartAccount();
  // Slow enough that the kill lands in the middle of the invoices.
  const system = restartSystem(kind, 'STRIPE', () =>
    startFakeStripe(stripeData(customers), API_KEY, { latencyMs: 3 }),
  );

  it('resumes after the restart from its last stored page and ends with the uninterrupted figures', async () => {
    await expectResumesAfterKill({
      system,
      customers,
      source: { name: 'Stripe', type: 'processor-a' },
      apiKey: API_KEY,
      // A few invoice pages stored: 400 records past as many as there are customers.
      killPast: async () => customers.length + 400,
      expectResumed(all) {
        const resumed = pageReads(all, /^GET \/v1\/customers\//);
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
