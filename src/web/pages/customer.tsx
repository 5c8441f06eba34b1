import { api } from '../api.js';
import { MrrChart } from '../components/mrr-chart.js';
import { money } from '../format.js';
import type { MrrReport } from '../reports.js';
import { href } from '../route.js';
import { type Invoice, linesBehind } from '../movement-lines.js';
import { useLoad } from '../use-load.js';
import { type Movement, MovementRows, movementsCsv } from './movements.js';

interface CustomerDetail {
  id: string;
  name: string | null;
  email: string | null;
  country: string | null;
  status: string;
  created_date: string;
  paid_started: string | null;
  cancel_date: string | null;
  currency: string;
  converted_mrr: number;
  current_subscriptions: {
    plan_id: string | null;
    name: string | null;
    billing_freq: string | null;
    currency: string;
    mrr: number;
  }[];
}

// A report range holds at most 3,700 days (docs/api.md, "Limits"): ten years of history.
const MAX_HISTORY_DAYS = 3650;

/** From the customer's creation, or ten years back for an older one, to today. */
function historyRange(created: string, today: Date): string {
  const earliest = new Date(today.getTime() - MAX_HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const to = today.toISOString().slice(0, 10);
  const from = created < earliest ? earliest : created > to ? to : created;
  return `${from.replaceAll('-', '')}-${to.replaceAll('-', '')}`;
}

/** One customer: what they pay now, their MRR over time, each movement, and the invoices behind them. */
export function Customer({ id, baseCurrency }: { id: string; baseCurrency: string }) {
  const [data] = useLoad(async () => {
    const path = `/customers/${encodeURIComponent(id)}`;
    const customer = await api.get<CustomerDetail>(path);
    const date = historyRange(customer.created_date, new Date());
    const [mrr, movements, invoices] = await Promise.all([
      api.get<MrrReport>('/reports/mrr', { customer: id, date, interval: 'month' }),
      api.get<{ currency: string; result: { list: Movement[] } }>('/reports/movement-table', {
        customer: id,
        date,
        limit: 1000,
      }),
      api.get<{ result: { list: Invoice[] } }>('/reports/invoices-detail', { customer: id }),
    ]);
    return { customer, mrr, movements, invoices: invoices.result.list };
  }, id);

  if (data.state === 'loading') return <p class="status">Loading the customer…</p>;
  if (data.state === 'error') {
    return (
      <main>
        <p class="error" role="alert">
          The customer could not be loaded: {data.message}
        </p>
        <a href={href('/customers')}>Back to customers</a>
      </main>
    );
  }
  const { customer, mrr, movements, invoices } = data.value;
  return (
    <main>
      <a href={href('/customers')}>← Customers</a>
      <h1>{customer.name || customer.id}</h1>
      <section class="cards" aria-label="Customer">
        <div class="card" data-metric="customer-mrr" data-value={customer.converted_mrr}>
          <span class="card-label">MRR ({baseCurrency.toUpperCase()})</span>
          <strong class="card-value">{money(customer.converted_mrr, baseCurrency)}</strong>
          <span class="card-change">{customer.status}</span>
        </div>
        <div class="card">
          <span class="card-label">Customer</span>
          <span>{customer.email ?? 'no email'}</span>
          <span class="muted">
            {customer.country ?? 'no country'} · {customer.currency.toUpperCase()} · since{' '}
            {customer.created_date}
            {customer.cancel_date ? ` · cancelled ${customer.cancel_date}` : ''}
          </span>
        </div>
      </section>
      {customer.current_subscriptions.length > 0 && (
        <section class="panel">
          <h2>Subscriptions</h2>
          <ul>
            {customer.current_subscriptions.map((subscription, index) => (
              <li key={index}>
                {subscription.name ?? subscription.plan_id ?? 'Plan'} ({subscription.billing_freq ?? 'period'}
                ): {money(subscription.mrr, subscription.currency)} a month
              </li>
            ))}
          </ul>
        </section>
      )}
      <section class="panel">
        <h2>MRR over time ({mrr.currency.toUpperCase()})</h2>
        <MrrChart rows={mrr.result} currency={mrr.currency} />
      </section>
      <section class="panel">
        <header class="panel-head">
          <h2>Movements</h2>
          <button
            type="button"
            class="secondary"
            onClick={() =>
              movementsCsv(`movements-${customer.id}.csv`, movements.result.list, movements.currency)
            }
          >
            Download CSV
          </button>
        </header>
        {movements.result.list.length === 0 ? (
          <p class="empty">No MRR movements.</p>
        ) : (
          <MovementRows
            list={movements.result.list}
            currency={movements.currency}
            detail={{
              heading: 'Invoice lines',
              cell: (movement) =>
                linesBehind(movement, invoices).map((line, index) => (
                  <div key={index} data-line>
                    {line.invoice}: {money(line.amount, line.currency)} {line.description ?? ''}{' '}
                    <span class="muted">
                      {line.period_start}–{line.period_end}
                    </span>
                  </div>
                )),
            }}
          />
        )}
      </section>
      <section class="panel">
        <h2>Invoices</h2>
        {invoices.length === 0 ? (
          <p class="empty">No invoices.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Invoice</th>
                  <th>Status</th>
                  <th class="num">Total</th>
                  <th>Lines</th>
                </tr>
              </thead>
              <tbody>
                {invoices.map((invoice) => (
                  <tr key={invoice.invoice_ref}>
                    <td>{invoice.invoice_date}</td>
                    <td>{invoice.invoice_number || invoice.invoice_ref}</td>
                    <td>{invoice.invoice_status}</td>
                    <td class="num">{money(invoice.total, invoice.currency)}</td>
                    <td>
                      {invoice.lines.map((line, index) => (
                        <div key={index}>
                          {money(line.amount, invoice.currency)} {line.description ?? ''}{' '}
                          <span class="muted">
                            {line.period_start ?? ''}–{line.period_end ?? ''}
                          </span>
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
