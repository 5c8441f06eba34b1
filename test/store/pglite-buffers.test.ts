import { describe, expect, it } from 'vitest';
import { openPgliteDb } from '../../src/store/pglite-db.js';

describe('the embedded store', () => {
  it('starts with 16 MB of shared buffers, not the 128 MB a server defaults to', async () => {
    const db = await openPgliteDb();
    try {
      expect(await db.query('show shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await db.close();
    }
  });
});
