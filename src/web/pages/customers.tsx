import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { FilterBar } from '../components/filter-bar.js';
import { PAGE_SIZE, Pager, pageOf, pageQuery } from '../components/pager.js';
import { downloadCsv } from '../csv.js';
import { dashboardParams, parseDashboardQuery, reportQuery, withoutRange } from '../dashboard-query.js';
import { money } from '../format.js';
import { href, navigate, type Route } from '../route.js';
import { useLoad } from '../use-load.js';

interface CustomerItem {
  id: string;
  name: string | null;
  email: string | null;
  country: string | null;
  mrr: number;
  status: string;
  created_date: string;
  paid_started: string | null;
}

const SORTS = {
  mrr: 'MRR',
  created_date: 'Created',
  paid_started: 'Paying since',
  country: 'Country',
} as const;
const STATUSES = ['active', 'cancelled', 'all'] as const;

/**
 * The customers list: search, status, sorting and page in the URL, and the filter bar's
 * currency and customer filters, which `/customers` takes as the reports do.
 */
export function Customers({ route, baseCurrency }: { route: Route; baseCurrency: string }) {
  const q = route.params.get('q') ?? '';
  const status = (STATUSES as readonly string[]).includes(route.params.get('status') ?? '')
    ? route.params.get('status')!
    : 'active';
  const sort = (route.params.get('sort') ?? '') in SORTS ? route.params.get('sort')! : 'mrr';
  const order = route.params.get('order') === 'asc' ? 'asc' : 'desc';
  const page = pageOf(route.params);
  const [search, setSearch] = useState(q);
  const query = parseDashboardQuery(route.params);
  const today = new Date();
  const currency = query.currency ?? baseCurrency;
  const own = { q: q || undefined, status, sort, order };
  const params = { ...withoutRange(reportQuery(query, today)), ...own, ...pageQuery(page) };
  const [customers] = useLoad(
    () => api.get<{ result: { list: CustomerItem[] } }>('/customers', params),
    JSON.stringify(params),
  );
  const go = (next: Record<string, string | undefined>) =>
    navigate('/customers', { ...dashboardParams(query), q, status, sort, order, ...next });
  const shown = customers.state === 'done' ? customers.value.result.list.slice(0, PAGE_SIZE) : [];

  return (
    <main>
      <h1>Customers</h1>
      <FilterBar path="/customers" query={query} today={today} extra={own} asOfToday />
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          go({ q: search, page: undefined });
        }}
      >
        <label>
          Search
          <input
            type="search"
            name="q"
            placeholder="Name, email or id"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        <label>
          Status
          <select
            name="status"
            value={status}
            onChange={(e) => go({ status: e.currentTarget.value, page: undefined })}
          >
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort by
          <select
            name="sort"
            value={sort}
            onChange={(e) => go({ sort: e.currentTarget.value, page: undefined })}
          >
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order
          <select
            name="order"
            value={order}
            onChange={(e) => go({ order: e.currentTarget.value, page: undefined })}
          >
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      {customers.state === 'loading' && <p class="status">Loading customers…</p>}
      {customers.state === 'error' && (
        <p class="error" role="alert">
          The customers could not be loaded: {customers.message}
        </p>
      )}
      {customers.state === 'done' && (
        <>
          <header class="panel-head">
            <Pager
              page={page}
              shown={shown.length}
              hasNext={customers.value.result.list.length > PAGE_SIZE}
              onPage={(next) => go({ page: String(next) })}
            />
            <button
              type="button"
              class="secondary"
              onClick={() =>
                downloadCsv(
                  'customers.csv',
                  [
                    'id',
                    'name',
                    'email',
                    'country',
                    'status',
                    'mrr',
                    'mrr_currency',
                    'created_date',
                    'paid_started',
                  ],
                  shown.map((c) => [
                    c.id,
                    c.name,
                    c.email,
                    c.country,
                    c.status,
                    c.mrr,
                    currency,
                    c.created_date,
                    c.paid_started,
                  ]),
                )
              }
            >
              Download CSV
            </button>
          </header>
          {shown.length === 0 ? (
            <p class="empty">
              {q
                ? `No ${status === 'all' ? '' : `${status} `}customer matches “${q}”.`
                : 'No customers here yet.'}
            </p>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Customer</th>
                    <th>Country</th>
                    <th>Status</th>
                    <th class="num">MRR</th>
                    <th>Created</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((customer) => (
                    <tr key={customer.id} data-customer={customer.id}>
                      <td>
                        <a href={href(`/customers/${encodeURIComponent(customer.id)}`)}>
                          {customer.name || customer.id}
                        </a>
                        {customer.email && <small class="muted"> {customer.email}</small>}
                      </td>
                      <td>{customer.country ?? '–'}</td>
                      <td>{customer.status}</td>
                      <td class="num">{money(customer.mrr, currency)}</td>
                      <td>{customer.created_date}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </main>
  );
}
