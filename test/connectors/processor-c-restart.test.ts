import { describe, expect, it } from 'vitest';
import { startFakeRecurly } from '../fakes/recurly-server.js';
import {
  expectResumesAfterKill,
  pageReads,
  restartAccount,
  restartSystem,
} from '../helpers/connector-restart.js';
import { recurlyData } from '../helpers/recurly-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'recurly_private_restart';

/**
 * The server as deployed (src/main.ts, RECURLY_API_* from the environment) importing from the
 * fake Recurly, killed in the middle of the invoices: the next process resumes from the stored
 * `next` link.
 */
describe.each(STORE_KINDS)('a Recurly import killed with SIGKILL on %s', (kind) => {
  const customers = restartAccount();
  // Slow enough that the kill lands between invoice pages (200 invoices a page).
  const system = restartSystem(kind, 'RECURLY', () =>
    startFakeRecurly(recurlyData(customers), API_KEY, { latencyMs: 250 }),
  );

  it('resumes after the restart from its last stored page and ends with the uninterrupted figures', async () => {
    await expectResumesAfterKill({
      system,
      customers,
      source: { name: 'Recurly', type: 'processor-c' },
      apiKey: API_KEY,
      // One invoice page past where the invoices began.
      killPast: (processed) => processed(),
      expectResumed(all) {
        const resumed = pageReads(all, /^GET \/accounts\/code-/);
        // Nothing before the invoices was read again, and the invoices went on from a next link.
        expect(resumed.filter((line) => !line.startsWith('GET /invoices'))).toEqual([]);
        expect(resumed[0]).toMatch(/^GET \/invoices\?.*cursor=/);
      },
    });
  }, 300_000);
});
