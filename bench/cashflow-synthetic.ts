import type { CustomerView } from '../src/engine/account-snapshot.js';
import type { CashflowInvoice, CashflowTransaction } from '../src/engine/cashflow/cashflow-data.js';
import { dayNumber, dayString } from '../src/engine/days.js';
import { FxTable } from '../src/engine/fx-table.js';
import { customerView } from '../test/helpers/customer-view.js';
import { Random } from './random.js';

/**
 * Cashflow data shaped like the benchmark account's, for timing the engine alone: about 8
 * invoices and 9 transactions per customer over six years, 5.5 % of invoices failing at first
 * (as in bench/generate.ts), some refunded, a third of the customers churned.
 */
export function syntheticCashflow(customerCount: number, seed = 1) {
  const generator = new Random(seed);
  const random = () => generator.next();
  const today = dayNumber('2026-11-23');
  const first = today - 6 * 365;
  const fx = FxTable.build(
    Array.from({ length: today - first + 1 }, (_, offset) => [
      { day: dayString(first + offset), currency: 'usd', perEur: 1.1 + random() * 0.1 },
      { day: dayString(first + offset), currency: 'gbp', perEur: 0.85 + random() * 0.05 },
    ]).flat(),
  );
  const currencies = ['usd', 'usd', 'usd', 'eur', 'gbp'];
  const customers: CustomerView[] = [];
  const invoices: CashflowInvoice[] = [];
  let transactionNumber = 0;
  const tx = (
    day: number,
    amount: number,
    type: 'payment' | 'refund',
    successful: boolean,
  ): CashflowTransaction => ({
    id: `tr_${++transactionNumber}`,
    day,
    type,
    successful,
    amount,
    paymentMethod: random() < 0.8 ? 'card' : 'sepa',
  });
  for (let c = 0; c < customerCount; c++) {
    const start = first + Math.floor(random() * (today - first));
    const churnDay = random() < 0.3 ? start + Math.floor(random() * (today - start)) : null;
    customers.push(
      customerView(`cus_${c}`, {
        name: `Customer ${c}`,
        email: `c${c}@example.com`,
        movements:
          churnDay === null
            ? []
            : [
                {
                  day: churnDay,
                  kind: 'churn',
                  subtype: 'voluntary',
                  amount: -1000,
                  scheduled: false,
                  knownDay: null,
                },
              ],
      }),
    );
    const currency = currencies[Math.floor(random() * currencies.length)]!;
    const end = churnDay ?? today;
    for (let day = start; day <= end; day += 30 + Math.floor(random() * 200)) {
      const total = 1000 + Math.floor(random() * 50_000);
      const transactions: CashflowTransaction[] = [];
      const roll = random();
      if (roll < 0.055) {
        transactions.push(tx(day, total, 'payment', false));
        for (let retry = 1; retry <= 3; retry++)
          transactions.push(tx(day + retry * 3, total, 'payment', random() < 0.4));
      } else if (roll < 0.95) {
        transactions.push(tx(day, total, 'payment', true));
        if (random() < 0.08) transactions.push(tx(day + 5, Math.floor(total / 2), 'refund', true));
      }
      const open = transactions.length === 0 || !transactions.some((t) => t.successful);
      invoices.push({
        id: `in_${invoices.length}`,
        number: `N${invoices.length}`,
        description: null,
        customer: c,
        currency,
        day,
        dueDay: day + 14,
        paymentDay: open ? null : day,
        status: open ? 'open' : 'paid',
        total,
        transactions,
      });
    }
  }
  invoices.sort((a, b) => a.day - b.day);
  return { today, fx, customers, invoices };
}
