import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/store/db.js';
import { createTestLocation, openLocationDb, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

describe.each(STORE_KINDS)('statements a transaction sends together (%s)', (kind) => {
  let location: TestLocation;
  let db: Db;
  beforeEach(async () => {
    location = await createTestLocation(kind);
    db = await openLocationDb(location);
    await db.exec('create table items (id int primary key, name text not null)');
  });
  afterEach(async () => {
    await db.close();
    await location.drop();
  });

  it('run one after another, in the order sent', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `item ${index + 1}`);
    // Each id counts the rows before it: any other order would pair ids and names differently.
    await db.transaction((tx) =>
      Promise.all(
        names.map((name) => tx.query('insert into items select count(*) + 1, $1 from items', [name])),
      ),
    );
    const rows = await db.query<{ id: number; name: string }>('select id, name from items order by id');
    expect(rows.map((row) => row.name)).toEqual(names);
    expect(rows.map((row) => row.id)).toEqual(names.map((_, index) => index + 1));
  });

  it('fail the transaction at the first that fails, and store nothing', async () => {
    const failed = db.transaction((tx) =>
      Promise.all([
        tx.query('insert into items values (1, $1)', ['one']),
        tx.query('insert into items values (1, $1)', ['again']),
        tx.query('insert into items values (2, $1)', ['two']),
      ]),
    );
    await expect(failed).rejects.toThrow('duplicate key value violates unique constraint "items_pkey"');
    expect(await db.query('select id from items')).toEqual([]);
    // The connection takes the next transaction at once.
    await db.transaction((tx) => tx.query('insert into items values (3, $1)', ['three']));
    expect(await db.query('select id from items')).toEqual([{ id: 3 }]);
  });

  it('run before the rollback of a transaction whose work threw while they waited', async () => {
    const failed = db.transaction(async (tx) => {
      // The insert waits behind the sleep; the rollback must wait behind both.
      for (const sent of [
        tx.query('select pg_sleep(0.1)'),
        tx.query('insert into items values (2, $1)', ['late']),
      ])
        sent.catch(() => {});
      throw new Error('the caller changed its mind');
    });
    await expect(failed).rejects.toThrow('the caller changed its mind');
    expect(await db.query('select id from items')).toEqual([]);
  });

  it('are refused once the transaction has ended', async () => {
    let ended: Queryable | undefined;
    await db.transaction(async (tx) => {
      ended = tx;
      await tx.query('insert into items values (1, $1)', ['inside']);
    });
    await expect(ended!.query('insert into items values (2, $1)', ['after'])).rejects.toThrow();
    expect(await db.query('select id from items')).toEqual([{ id: 1 }]);
  });
});
