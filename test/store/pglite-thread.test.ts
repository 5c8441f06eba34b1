import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { openPgliteDb } from '../../src/store/pglite-db.js';

describe('the embedded store on its own thread', () => {
  let db: Db;
  beforeEach(async () => {
    db = await openPgliteDb();
    await db.exec('create table items (id int primary key, name text not null)');
  });
  afterEach(async () => {
    await db.close();
  });

  it('leaves this thread free while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      // About half a second of the database's work in one statement: on this thread it would
      // have held every timer until it ended.
      const [row] = await db.query<{ n: number }>('select count(*) as n from generate_series(1, 3000000)');
      expect(row?.n).toBe(3_000_000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(3);
  });

  it("passes a database error on with the database's fields", async () => {
    await db.query('insert into items values (1, $1)', ['one']);
    const error = await db.query('insert into items values (1, $1)', ['again']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      message: 'duplicate key value violates unique constraint "items_pkey"',
      code: '23505',
      constraint: 'items_pkey',
      table: 'items',
    });
    // Its stack is the caller's, here this file's, under the database's message.
    expect((error as Error).stack).toMatch(
      /^error: duplicate key value violates unique constraint "items_pkey"\n/,
    );
    expect((error as Error).stack).toContain('pglite-thread.test.ts');
  });

  it('commits a transaction whole, and rolls one back whole when its work throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into items values (1, $1)', ['one']);
      await tx.query('insert into items values (2, $1)', ['two']);
    });
    const failed = db.transaction(async (tx) => {
      await tx.query('insert into items values (3, $1)', ['three']);
      throw new Error('the caller changed its mind');
    });
    await expect(failed).rejects.toThrow('the caller changed its mind');
    expect(await db.query('select id, name from items order by id')).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ]);
  });

  it('runs a statement outside a transaction after the transaction, as one connection does', async () => {
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into items values (1, $1)', ['inside']);
      await held;
      order.push('transaction ends');
    });
    const outside = db.query('select count(*) as n from items').then((rows) => {
      order.push('outside answered');
      return rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await outside).toEqual([{ n: 1 }]);
    expect(order).toEqual(['transaction ends', 'outside answered']);
  });

  it('copies rows in as CSV and out as COPY text', async () => {
    await db.copyCsv?.('items', ['id', 'name'], '1,one\n2,"two, with a comma"\n');
    const chunks: Buffer[] = [];
    for await (const chunk of db.copyText?.('select id, name from items order by id') ?? [])
      chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('1\tone\n2\ttwo, with a comma\n');
  });

  it('reads COPY text under its own settings, which no later statement keeps', async () => {
    const setting = "select current_setting('enable_nestloop') as value";
    const chunks: Buffer[] = [];
    for await (const chunk of db.copyText?.(setting, { enable_nestloop: 'off' }) ?? []) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('off\n');
    expect(await db.query(setting)).toEqual([{ value: 'on' }]);
  });

  it('delivers notifications until the listener stops', async () => {
    const payloads: string[] = [];
    const unlisten = await db.listen(
      'changes',
      (payload) => payloads.push(payload),
      () => {},
    );
    await db.query("select pg_notify('changes', 'first')");
    await unlisten();
    await db.query("select pg_notify('changes', 'second')");
    expect(payloads).toEqual(['first']);
  });

  it('fails a call whose parameters cannot cross to the thread, and only that call', async () => {
    await expect(db.query('select $1::text as value', [() => 'a function'])).rejects.toThrow(
      /could not be cloned/,
    );
    expect(await db.query('select $1::text as value', ['text'])).toEqual([{ value: 'text' }]);
  });

  it('refuses calls once closed', async () => {
    const closed = await openPgliteDb();
    await closed.close();
    await expect(closed.query('select 1')).rejects.toThrow('The embedded store is closed');
  });
});
