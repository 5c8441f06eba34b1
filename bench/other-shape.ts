import { dayNumber, dayString } from '../src/engine/days.js';
import { shiftMonths } from '../src/engine/periods.js';
import { Random } from './random.js';

/**
 * An account shaped unlike the main generator's, so that a plan or a path that only that shape
 * avoids shows up here first: every record in a named data source, weekly to yearly plans
 * (fortnightly ones too), four currencies, about twenty invoices a customer, and one payment
 * carrying a payment method on every paid invoice.
 */

const CURRENCIES = [
  ['usd', 100],
  ['eur', 90],
  ['gbp', 80],
  ['jpy', 1],
] as const;
const FREQUENCIES = [
  ['week', 1, 0.15],
  ['week', 2, 0.1],
  ['month', 1, 0.45],
  ['quarter', 1, 0.1],
  ['year', 1, 0.2],
] as const;
const PAYMENT_METHODS = [
  ['card', 0.6],
  ['sepa_debit', 0.15],
  ['PayPal', 0.15],
  ['ach_debit', 0.1],
] as const;

type Freq = (typeof FREQUENCIES)[number][0];
const DAYS_PER_PERIOD: Record<Freq, number> = { week: 7, month: 30.44, quarter: 91.31, year: 365.25 };

const planId = (freq: Freq, count: number, currency: string) => `p-${freq}${count}-${currency}`;

export interface ShapedAccount {
  plans: unknown[];
  customers: unknown[];
  invoices: unknown[];
}

function nextPeriod(day: number, freq: Freq, count: number): number {
  if (freq === 'week') return day + 7 * count;
  return shiftMonths(day, { month: 1, quarter: 3, year: 12 }[freq] * count);
}

/** `customers` customers in data source `dataSourceId`, ending on `today`. */
export function shapedAccount(
  customers: number,
  dataSourceId: string,
  today: string,
  seed = 7,
): ShapedAccount {
  const end = dayNumber(today);
  const plans = CURRENCIES.flatMap(([currency]) =>
    FREQUENCIES.map(([freq, count]) => ({
      id: planId(freq, count, currency),
      name: `Every ${count} ${freq} (${currency})`,
      billing_freq: freq,
      billing_freq_count: count,
      currency,
      data_source: dataSourceId,
    })),
  );
  const customerItems: unknown[] = [];
  const invoices: unknown[] = [];
  for (let index = 0; index < customers; index++) {
    const random = Random.forItem(seed, index);
    const [currency, unit] = random.weighted(CURRENCIES.map((entry) => [entry, 1] as const));
    const [freq, count] = random.weighted(FREQUENCIES.map((entry) => [entry, entry[2]] as const));
    const method = random.weighted(PAYMENT_METHODS);
    const id = `c${index}`;
    const wanted = random.int(10, 30);
    // Far enough back for about `wanted` periods, at most ten years.
    const start = end - Math.min(3650, Math.round(wanted * DAYS_PER_PERIOD[freq] * count));
    customerItems.push({
      id,
      name: `Customer ${index}`,
      email: `c${index}@shape.example`,
      created_date: `${dayString(start)}T09:00:00Z`,
      currency,
      country: random.pick(['US', 'DE', 'GB', 'JP', 'FR']),
      data_source: dataSourceId,
    });
    const amount = random.int(10, 400) * unit * (freq === 'year' ? 10 : 1);
    let number = 0;
    for (let from = start; from <= end; number++) {
      const to = nextPeriod(from, freq, count);
      const status = random.weighted([
        ['paid', 0.9],
        ['open', 0.05],
        ['void', 0.05],
      ] as const);
      invoices.push({
        id: `${id}-${number}`,
        customer_id: id,
        data_source: dataSourceId,
        date: dayString(from),
        currency,
        status,
        lines: [
          {
            type: 'subscription',
            subscription_id: `${id}-s`,
            plan_id: planId(freq, count, currency),
            amount,
            quantity: 1,
            period_start: dayString(from),
            period_end: dayString(to),
          },
        ],
        transactions:
          status === 'paid'
            ? [
                {
                  id: `${id}-${number}-t`,
                  date: `${dayString(from)}T10:00:00Z`,
                  type: 'payment',
                  result: 'successful',
                  amount,
                  payment_method: method,
                },
              ]
            : [],
      });
      from = to;
    }
  }
  return { plans, customers: customerItems, invoices };
}
