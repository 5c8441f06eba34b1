import { parseArgs } from 'node:util';
import { buildApp } from '../src/api/app.js';
import { fixedClock } from '../src/services/clock.js';
import { createServices } from '../src/services/index.js';
import type { Db, Queryable, StoreKind } from '../src/store/db.js';
import { storeOver } from '../src/store/open-store.js';
import { migrate } from '../src/store/migrate.js';
import { openPgliteDb } from '../src/store/pglite-db.js';
import { openPostgresDb } from '../src/store/postgres-db.js';
import { shapedAccount } from './other-shape.js';
import { createBenchStore } from './stores.js';

const USAGE = `npm run bench:statements -- [options]

Imports an account of the other shape (bench/other-shape.ts) through the API into a fresh store
whose tables are never analyzed, calls every GET route without path parameters once, and times
every SQL statement. It does so at two sizes, the second twice the first, and prints each
statement's total time at both with the ratio: near 2 for a statement whose cost grows with the
account, near 4 for one that grows with its square. With --explain, the plans of the reads that
grew the most, on the larger store.

  --customers N       customers of the smaller account (default 1000)
  --store KIND        pglite or postgres (default pglite)
  --explain N         EXPLAIN ANALYZE the N reads with the largest ratio (default 0)
  --postgres-url URL  server to create the databases on (default postgres://postgres@127.0.0.1:5432/postgres)
`;

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '1000' },
    store: { type: 'string', default: 'pglite' },
    explain: { type: 'string', default: '0' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    help: { type: 'boolean', default: false },
  },
});

interface Statement {
  sql: string;
  calls: number;
  ms: number;
  /** The parameters of its slowest call, to explain it with. */
  params: readonly unknown[];
  slowestMs: number;
}

const TODAY = '2026-11-24';

/** The escaped string literals `withLiterals` writes (src/store/sql-literal.ts). */
const LITERALS = /E'(?:[^'\\]|''|\\.)*'/g;

/** Times every statement through `db`; analysis is skipped, so the tables stay as an import leaves them. */
function profiled(db: Db, statements: Map<string, Statement>): Db {
  const timed = async <T>(sql: string, params: readonly unknown[], run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    const ms = performance.now() - started;
    const entry = statements.get(sql) ?? { sql, calls: 0, ms: 0, params, slowestMs: 0 };
    entry.calls += 1;
    entry.ms += ms;
    if (ms > entry.slowestMs) Object.assign(entry, { slowestMs: ms, params });
    statements.set(sql, entry);
    return result;
  };
  const wrap = (target: Queryable): Queryable => {
    const { copyRows } = target;
    return {
      exec: async (sql) => {
        if (!sql.startsWith('analyze ')) await target.exec(sql);
      },
      query: async (sql, params = []) => (await timed(sql, params, () => target.query(sql, params))) as never,
      ...(target.copyCsv ? { copyCsv: target.copyCsv } : {}),
      // A COPY's values are literals in its text: the statement is counted with them left out.
      ...(copyRows
        ? { copyRows: (sql) => timed(`COPY ${sql.replace(LITERALS, '?')}`, [], () => copyRows(sql)) }
        : {}),
    };
  };
  return {
    ...wrap(db),
    kind: db.kind,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    ping: () => db.ping(),
    listen: (channel, onPayload, onLost) => db.listen(channel, onPayload, onLost),
    close: () => db.close(),
    jobQueueDb: db.jobQueueDb,
  };
}

async function profile(kind: StoreKind, customers: number) {
  const bench = kind === 'postgres' ? await createBenchStore('postgres', values['postgres-url']) : null;
  const db = bench?.databaseUrl ? await openPostgresDb(bench.databaseUrl) : await openPgliteDb();
  const statements = new Map<string, Statement>();
  try {
    await migrate(db);
    const services = createServices(storeOver(profiled(db, statements)), fixedClock(`${TODAY}T12:00:00Z`));
    const app = await buildApp(services);
    const { adminKey } = await services.accounts.create({ name: 'Statements' });
    const headers = { authorization: `Bearer ${adminKey.key}` };
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const response = await app.inject({
        method,
        url,
        headers,
        ...(payload ? { payload: payload } : {}),
      });
      if (method === 'POST' && response.statusCode >= 300)
        throw new Error(`${url}: ${response.body.slice(0, 300)}`);
      return response;
    };
    const source = (await call('POST', '/data/data-sources', { name: 'Billing', type: 'api' })).json<{
      id: string;
    }>();
    const account = shapedAccount(customers, source.id, TODAY);
    await call('POST', '/data/plans', account.plans);
    for (const [path, items] of [
      ['/data/customers', account.customers],
      ['/data/invoices', account.invoices],
    ] as const) {
      for (let at = 0; at < items.length; at += 2_000) await call('POST', path, items.slice(at, at + 2_000));
    }
    const document = (await call('GET', '/openapi.json')).json<{
      paths: Record<string, { get?: unknown }>;
    }>();
    const routes = Object.entries(document.paths).filter(([path, item]) => item.get && !path.includes('{'));
    // The refresh the writes asked for runs now, whole, rather than at a moment of the reads.
    await services.metrics.settled();
    // The summary first: its call builds the snapshot, the others read it.
    for (const path of ['/reports/summary', ...routes.map(([path]) => path)]) await call('GET', path);
    await services.metrics.stop();
    await app.close();
    return {
      statements,
      db,
      drop: async () => {
        await db.close();
        await bench?.drop();
      },
    };
  } catch (error) {
    await db.close();
    await bench?.drop();
    throw error;
  }
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

async function main(): Promise<void> {
  if (values.help) return void process.stdout.write(USAGE);
  const kind = values.store as StoreKind;
  const customers = Number(values.customers);
  const small = await profile(kind, customers);
  await small.drop();
  const large = await profile(kind, 2 * customers);
  try {
    const rows = [...large.statements.values()].map((statement) => {
      const before = small.statements.get(statement.sql)?.ms ?? 0;
      return { statement, before, ratio: before > 0 ? statement.ms / before : Number.NaN };
    });
    rows.sort((a, b) => b.statement.ms - a.statement.ms);
    process.stdout.write(
      `${'ms small'.padStart(9)} ${'ms large'.padStart(9)} ${'ratio'.padStart(6)} calls statement\n`,
    );
    for (const { statement, before, ratio } of rows.slice(0, 40)) {
      process.stdout.write(
        `${before.toFixed(0).padStart(9)} ${statement.ms.toFixed(0).padStart(9)} ${ratio.toFixed(1).padStart(6)} ` +
          `${String(statement.calls).padStart(5)} ${oneLine(statement.sql).slice(0, 140)}\n`,
      );
    }
    const worst = rows
      // Reads only: EXPLAIN ANALYZE runs the statement.
      .filter(
        (row) => /^\s*select/i.test(row.statement.sql) && row.statement.ms > 50 && Number.isFinite(row.ratio),
      )
      .sort((a, b) => b.ratio - a.ratio)
      .slice(0, Number(values.explain));
    for (const { statement } of worst) {
      const plan = await large.db.query<Record<string, string>>(
        `explain (analyze, costs off) ${statement.sql}`,
        statement.params,
      );
      process.stdout.write(
        `\n${oneLine(statement.sql)}\n${plan.map((row) => Object.values(row)[0]).join('\n')}\n`,
      );
    }
  } finally {
    await large.drop();
  }
}

await main();
