import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { customersCsv, invoicesCsv, plansCsv } from './csv.js';
import { generateAccount, generatePlans } from './generate.js';
import type { CustomerPayload, InvoicePayload, SubscriptionPayload } from './payloads.js';

const USAGE = `npm run bench:generate -- --out DIR [options]

Writes a generated account as request bodies for the public API, each at most 10,000 items:
plans, customers-NNN, invoices-NNN (JSON or CSV) and subscriptions-NNN (always JSON: that
route takes no CSV). POST them in that order: plans, every customers file, then the rest.

  --customers N        customers (default 1000)
  --seed N             generator seed (default 1)
  --today YYYY-MM-DD   last day of the data (default: today, UTC)
  --history-years N    how far back sign-ups go (default 6)
  --format json|csv    (default json)
`;

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    customers: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    today: { type: 'string', default: new Date().toISOString().slice(0, 10) },
    'history-years': { type: 'string', default: '6' },
    format: { type: 'string', default: 'json' },
  },
});

const BODY_ITEMS = 10_000;
const format = values.format;
if (!values.out || (format !== 'json' && format !== 'csv')) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const out = values.out;
mkdirSync(out, { recursive: true });

/** Collects items and writes every full body to its own numbered file. */
function bodies<T>(name: string, render: (items: T[]) => { text: string; extension: string }) {
  let items: T[] = [];
  let files = 0;
  const flush = () => {
    if (items.length === 0) return;
    files += 1;
    const { text, extension } = render(items);
    writeFileSync(join(out, `${name}-${String(files).padStart(3, '0')}.${extension}`), text);
    items = [];
  };
  return {
    add(more: readonly T[]) {
      for (const item of more) {
        items.push(item);
        if (items.length === BODY_ITEMS) flush();
      }
    },
    flush,
  };
}

const json = <T>(items: T[]) => ({ text: JSON.stringify(items), extension: 'json' });
const plans = generatePlans();
writeFileSync(join(out, `plans.${format}`), format === 'csv' ? plansCsv(plans) : JSON.stringify(plans));
const customers = bodies<CustomerPayload>('customers', (items) =>
  format === 'csv' ? { text: customersCsv(items), extension: 'csv' } : json(items),
);
const invoices = bodies<InvoicePayload>('invoices', (items) =>
  format === 'csv' ? { text: invoicesCsv(items), extension: 'csv' } : json(items),
);
const subscriptions = bodies<SubscriptionPayload>('subscriptions', json);

for (const records of generateAccount({
  customers: Number(values.customers),
  seed: Number(values.seed),
  today: values.today,
  historyYears: Number(values['history-years']),
})) {
  customers.add([records.customer]);
  invoices.add(records.invoices);
  subscriptions.add(records.subscriptions);
}
customers.flush();
invoices.flush();
subscriptions.flush();
process.stdout.write(`Written to ${out}\n`);
