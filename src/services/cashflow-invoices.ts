import type { AccountSnapshot } from '../engine/account-snapshot.js';
import type { CashflowInvoice } from '../engine/cashflow/cashflow-data.js';
import { dayNumber } from '../engine/days.js';
import type { InvoiceRow } from '../store/invoices-repo.js';
import type { Store } from '../store/open-store.js';
import { keyString } from '../store/records-repo.js';

const dayOrNull = (text: string | null) => (text === null ? null : dayNumber(text.slice(0, 10)));

function toCashflowInvoice(row: InvoiceRow, customer: number): CashflowInvoice {
  return {
    id: row.id,
    number: row.number,
    description: row.description,
    customer,
    currency: row.currency,
    day: dayNumber(row.date),
    dueDay: dayOrNull(row.due_date),
    paymentDay: dayOrNull(row.payment_date),
    status: row.status,
    total: row.amount,
    lines: row.lines.map((line) => ({
      description: line.description,
      amount: line.amount,
      quantity: line.quantity,
      periodStart: line.period_start,
      periodEnd: line.period_end,
    })),
    // Stored instants are UTC ISO strings, so text order is time order; sort keeps ties stable.
    transactions: [...row.transactions]
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((transaction) => ({
        id: transaction.id,
        day: dayNumber(transaction.date.slice(0, 10)),
        type: transaction.type,
        successful: transaction.result === 'successful',
        amount: transaction.amount,
        paymentMethod: transaction.payment_method,
      })),
  };
}

/**
 * Each account's invoices as the cashflow engine reads them, tied to the snapshot's customer
 * indexes and kept until the snapshot's data version moves. An invoice written after the
 * snapshot was built, for a customer it does not hold yet, waits for the next version.
 */
export function createCashflowInvoices(store: Store) {
  const cache = new Map<string, { version: number; invoices: CashflowInvoice[] }>();
  return async function cashflowInvoices(
    accountId: string,
    snapshot: AccountSnapshot,
  ): Promise<readonly CashflowInvoice[]> {
    const cached = cache.get(accountId);
    if (cached && cached.version === snapshot.version) return cached.invoices;
    const indexes = new Map(
      snapshot.customers.map((customer, index) => [
        keyString({ dataSourceId: customer.dataSourceId, id: customer.id }),
        index,
      ]),
    );
    const invoices = (await store.cashflow.invoices(accountId)).flatMap((row) => {
      const index = indexes.get(keyString({ dataSourceId: row.data_source, id: row.customer_id }));
      return index === undefined ? [] : [toCashflowInvoice(row, index)];
    });
    cache.set(accountId, { version: snapshot.version, invoices });
    return invoices;
  };
}

export type CashflowInvoices = ReturnType<typeof createCashflowInvoices>;
