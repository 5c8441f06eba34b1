import { describe, expect, it } from 'vitest';
import { startFakeChargebee } from '../fakes/chargebee-server.js';
import { chargebeeData } from '../helpers/chargebee-account.js';
import {
  expectResumesAfterKill,
  pageReads,
  restartAccount,
  restartSystem,
} from '../helpers/connector-restart.js';
import { STORE_KINDS } from '../helpers/stores.js';

const SITE = 'fake-books-test';
const API_KEY = 'test_restart_readonly';

/** What an invoice page reads besides the invoices: their credit notes, payments and item prices. */
const INVOICE_PAGE_READS = /^GET \/api\/v2\/(invoices|credit_notes|transactions|item_prices)\?/;

/**
 * The server as deployed (src/main.ts, CHARGEBEE_API_* from the environment) importing from the
 * fake Chargebee, killed in the middle of the invoices: the next process resumes from the
 * stored `next_offset`.
 */
describe.each(STORE_KINDS)('a Chargebee import killed with SIGKILL on %s', (kind) => {
  const customers = restartAccount();
  // Slow enough that the kill lands between invoice pages (100 invoices a page).
  const system = restartSystem(kind, 'CHARGEBEE', () =>
    startFakeChargebee(chargebeeData(customers), SITE, API_KEY, { latencyMs: 100 }),
  );

  it('resumes after the restart from its last stored page and ends with the uninterrupted figures', async () => {
    await expectResumesAfterKill({
      system,
      customers,
      source: { name: 'Chargebee', type: 'processor-b' },
      apiKey: API_KEY,
      connectWith: { site: SITE },
      // One invoice page past where the invoices began.
      killPast: (processed) => processed(),
      expectResumed(all) {
        const resumed = pageReads(all, /^GET \/api\/v2\/customers\//);
        // Nothing before the invoices was read again (item prices only by id, for the lines'
        // periods), and the invoices went on from a stored offset.
        expect(resumed.filter((line) => !INVOICE_PAGE_READS.test(line))).toEqual([]);
        expect(
          resumed.filter((line) => line.startsWith('GET /api/v2/item_prices?') && !line.includes('id[in]')),
        ).toEqual([]);
        expect(resumed[0]).toMatch(/^GET \/api\/v2\/invoices\?.*offset=\["\d+"\]/);
      },
    });
  }, 300_000);
});
