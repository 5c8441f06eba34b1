import {
  failedPaymentItems,
  failedPaymentsReport,
  failedPaymentsSummary,
} from '../src/engine/cashflow/failed-payments.js';
import { failureRateReport, failureRateSummary } from '../src/engine/cashflow/failure-rate.js';
import { invoicePage, invoiceRecords } from '../src/engine/cashflow/invoice-details.js';
import { outstandingSummary } from '../src/engine/cashflow/outstanding.js';
import { isRefund, refundsReport } from '../src/engine/cashflow/refunds.js';
import {
  transactionItems,
  transactionsReport,
  transactionsSummary,
} from '../src/engine/cashflow/transactions.js';
import { buildCashflowTable } from '../src/engine/cashflow/cashflow-table.js';
import { syntheticCashflow } from './cashflow-synthetic.js';

const customerCount = Number(process.argv[2] ?? 10_000);
// A third argument `masked` keeps only every other customer, as a filter would.
const masked = process.argv[4] === 'masked';
const { today, fx, customers, invoices } = syntheticCashflow(customerCount);
const transactions = invoices.reduce((sum, invoice) => sum + invoice.transactions.length, 0);
console.log(`${customerCount} customers, ${invoices.length} invoices, ${transactions} transactions`);
const heap = () => `${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`;
global.gc?.();
console.log(`heap with the invoice objects ${heap()}`);
let start = performance.now();
const table = buildCashflowTable(invoices);
console.log(`table built in ${(performance.now() - start).toFixed(0)} ms`);
start = performance.now();
table.amountsIn(fx, 'usd');
console.log(`base amounts in ${(performance.now() - start).toFixed(0)} ms`);
invoices.length = 0;
global.gc?.();
console.log(`heap with the table only ${heap()}`);

const range = {
  from: today - 365,
  to: today,
  interval: 'month' as const,
  baseCurrency: 'usd',
  fixedRateDay: null,
  today,
};
const now = { today, baseCurrency: 'usd', fixedRateDay: null };
const page = { offset: 0, limit: 100 };
const mask = masked ? Uint8Array.from(customers, (_, index) => index % 2) : null;
const people = customers;
// Every invoice has one line of its total: what the store would read for the page.
const linesOf = (page: readonly number[]) =>
  page.map((invoice) => [
    {
      description: 'plan',
      amount: table.invoiceTotal[invoice]!,
      quantity: 1,
      periodStart: null,
      periodEnd: null,
    },
  ]);
const reports: [string, () => unknown][] = [
  ['transactions', () => transactionsReport(table, mask, range, fx)],
  ['transactions-summary', () => transactionsSummary(table, mask, now, fx)],
  ['transactions-detail', () => transactionItems(table, mask, people, range, fx, page)],
  ['refunds', () => refundsReport(table, mask, range, fx)],
  ['refunds-detail', () => transactionItems(table, mask, people, range, fx, page, isRefund)],
  ['failed-payments', () => failedPaymentsReport(table, mask, people, range, fx)],
  ['failed-payments-summary', () => failedPaymentsSummary(table, mask, people, now, fx)],
  ['failed-payments-detail', () => failedPaymentItems(table, mask, people, range, fx, page)],
  ['failure-rate', () => failureRateReport(table, mask, range)],
  ['failure-rate-summary', () => failureRateSummary(table, mask, today)],
  ['outstanding', () => outstandingSummary(table, mask, now, fx)],
  [
    'invoices-detail',
    () => {
      const invoices = invoicePage(table, mask, page);
      return invoiceRecords(table, invoices, linesOf(invoices), people, now, fx);
    },
  ],
];
const results: Record<string, string> = {};
for (const [name, run] of reports) {
  const times: number[] = [];
  for (let i = 0; i < 31; i++) {
    const start = performance.now();
    results[name] = JSON.stringify(run());
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(26)} median ${times[15]!.toFixed(2)} ms`);
}
if (process.argv[3] !== undefined) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(process.argv[3], JSON.stringify(results));
}
