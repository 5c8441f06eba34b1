import { describe, expect, it } from 'vitest';
import { openPgliteDb } from '../../src/store/pglite-db.js';

describe('ping on the embedded store', () => {
  it('answers while a transaction holds the store, and refuses once it is closed', async () => {
    const db = await openPgliteDb();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('select 1');
      await held;
    });
    // A query here would wait for the transaction; the ping must not.
    const answered = await Promise.race([
      db.ping().then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('waited'), 1_000)),
    ]);
    expect(answered).toBe('answered');
    release();
    await transaction;
    await db.close();
    await expect(db.ping()).rejects.toThrow('The embedded store is not open');
  });
});
