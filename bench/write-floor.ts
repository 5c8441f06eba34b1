import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock } from '../src/services/clock.js';
import { createServices } from '../src/services/index.js';
import { invoiceInputSchema } from '../src/services/invoices-service.js';
import { csvRows } from '../src/store/csv-rows.js';
import {
  INVOICE_WRITE_COLUMNS,
  type InvoiceRow,
  invoiceTableRows,
  LINE_WRITE_COLUMNS,
  lineTableRows,
  TRANSACTION_WRITE_COLUMNS,
  transactionTableRows,
} from '../src/store/invoices-repo.js';
import type { Db } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { storeOver } from '../src/store/open-store.js';
import { openPgliteDb } from '../src/store/pglite-db.js';
import { generateAccount, generatePlans } from './generate.js';
import type { InvoicePayload } from './payloads.js';

const USAGE = `npm run bench:write-floor -- [--customers N]

How fast the embedded store takes an import's invoices with no HTTP, no validation and no
background refresh. The generated account's invoices, validated beforehand, are written into a
new store on disk in bodies of 5,000 invoices, one after the other, twice: by the service's
invoice write (the upsert, then the lines and transactions by COPY, its text made on this thread
as it goes), and by COPY alone into the three tables with the text made before the clock starts,
the least PGlite can do with the rows. Each prints invoices a second; the benchmark's ingest,
through the API, sits below both.

  --customers N   customers of the generated account (default 20000)
`;

const { values } = parseArgs({
  options: { customers: { type: 'string', default: '20000' }, help: { type: 'boolean', default: false } },
});
const customers = Number(values.customers);
if (!values.help && !(Number.isInteger(customers) && customers > 0)) {
  process.stderr.write(`--customers must be a positive whole number\n\n${USAGE}`);
  process.exit(2);
}
const BODY = 5_000;
const TODAY = new Date().toISOString().slice(0, 10);

/** The three tables an invoice is written to: their columns after `account_id`, and its rows. */
const TABLES = [
  { table: 'invoices', columns: INVOICE_WRITE_COLUMNS, rows: invoiceTableRows },
  { table: 'invoice_lines', columns: LINE_WRITE_COLUMNS, rows: lineTableRows },
  { table: 'invoice_transactions', columns: TRANSACTION_WRITE_COLUMNS, rows: transactionTableRows },
];

/**
 * A new store on disk holding the account's plans and customers, and its invoices as validated
 * rows in bodies: everything a write needs, made before the clock starts.
 */
async function prepared(db: Db) {
  await migrate(db);
  const store = storeOver(db);
  const services = createServices(store, fixedClock(`${TODAY}T12:00:00Z`));
  const { account } = await services.accounts.create({ name: 'Write floor' });
  await services.plans.import(account.id, generatePlans());
  const payloads: InvoicePayload[] = [];
  const people: unknown[] = [];
  for (const records of generateAccount({ customers, seed: 1, today: TODAY, historyYears: 6 })) {
    people.push(records.customer);
    payloads.push(...records.invoices);
  }
  for (let at = 0; at < people.length; at += BODY)
    await services.customers.upsert(account.id, people.slice(at, at + BODY));
  const [source] = await store.dataSources.list(account.id);
  const rows = payloads.map((payload) => ({
    ...invoiceInputSchema.parse(payload),
    data_source: source!.id,
  })) as InvoiceRow[];
  const bodies: InvoiceRow[][] = [];
  for (let at = 0; at < rows.length; at += BODY) bodies.push(rows.slice(at, at + BODY));
  return { db, store, accountId: account.id, bodies, invoices: rows.length };
}

/** Times `write`'s answer: made from the prepared store before the clock starts, then run. */
async function timed(
  label: string,
  write: (setup: Awaited<ReturnType<typeof prepared>>) => () => Promise<void>,
) {
  const dir = mkdtempSync(join(tmpdir(), 'mrrlytics-floor-'));
  const db = await openPgliteDb(dir).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  try {
    const setup = await prepared(db);
    const run = write(setup);
    const started = performance.now();
    await run();
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `${label}: ${setup.invoices} invoices in ${seconds.toFixed(1)} s, ${Math.round(setup.invoices / seconds)} a second\n`,
    );
  } finally {
    try {
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  if (values.help) return void process.stdout.write(USAGE);
  await timed("the service's invoice write", ({ store, accountId, bodies }) => async () => {
    for (const body of bodies) await store.transaction((tx) => tx.invoices.upsertMany(accountId, body));
  });
  // The CSV text is made before the clock starts: what is timed is PGlite's work alone.
  await timed('COPY alone', ({ db, accountId, bodies }) => {
    const texts = bodies.map((body) =>
      TABLES.map(({ table, columns, rows }) => ({
        table,
        columns: ['account_id', ...Object.keys(columns)],
        csv: csvRows(accountId, columns, rows(body)),
      })),
    );
    return async () => {
      for (const body of texts) {
        await db.transaction(async (tx) => {
          for (const { table, columns, csv } of body) await tx.copyCsv!(table, columns, csv);
        });
      }
    };
  });
}

await main();
