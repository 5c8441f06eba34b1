import type { ComponentChildren } from 'preact';
import { api } from '../api.js';
import { FilterBar } from '../components/filter-bar.js';
import { PAGE_SIZE, Pager, pageOf, pageQuery } from '../components/pager.js';
import { downloadCsv } from '../csv.js';
import { dashboardParams, parseDashboardQuery, reportQuery } from '../dashboard-query.js';
import { money } from '../format.js';
import { MOVEMENTS } from '../reports.js';
import { href, navigate, type Route } from '../route.js';
import { useLoad } from '../use-load.js';

export interface Movement {
  date: string;
  currency: string;
  customer_id: string;
  customer_name: string | null;
  type: string;
  mrr_change: number;
  mrr_change_base_currency: number;
  description: string;
}

interface MovementTable {
  currency: string;
  result: { list: Movement[] };
}

export function movementsCsv(filename: string, list: Movement[], currency: string): void {
  downloadCsv(
    filename,
    [
      'date',
      'customer_id',
      'customer_name',
      'type',
      'mrr_change',
      'currency',
      'mrr_change_base_currency',
      'base_currency',
      'description',
    ],
    list.map((item) => [
      item.date,
      item.customer_id,
      item.customer_name,
      item.type,
      item.mrr_change,
      item.currency,
      item.mrr_change_base_currency,
      currency,
      item.description,
    ]),
  );
}

/** One more column of the movement rows, where a page knows more about each movement. */
interface MovementDetail {
  heading: string;
  cell: (movement: Movement) => ComponentChildren;
}

export function MovementRows({
  list,
  currency,
  detail,
}: {
  list: Movement[];
  currency: string;
  detail?: MovementDetail;
}) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th>Date</th>
            <th>Customer</th>
            <th>Movement</th>
            <th class="num">MRR change</th>
            <th>Description</th>
            {detail && <th>{detail.heading}</th>}
          </tr>
        </thead>
        <tbody>
          {list.map((item, index) => (
            <tr key={`${item.date}-${item.customer_id}-${index}`}>
              <td>{item.date}</td>
              <td>
                <a href={href(`/customers/${encodeURIComponent(item.customer_id)}`)}>
                  {item.customer_name || item.customer_id}
                </a>
              </td>
              <td>
                <span class={`tag ${item.type}`}>{item.type}</span>
              </td>
              <td class="num">{money(item.mrr_change_base_currency, currency)}</td>
              <td>{item.description}</td>
              {detail && <td>{detail.cell(item)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every MRR movement of the period, newest first, a page at a time, filtered by kind. */
export function Movements({ route }: { route: Route }) {
  const query = parseDashboardQuery(route.params);
  const type = route.params.get('type') ?? '';
  const page = pageOf(route.params);
  const today = new Date();
  const params = { ...reportQuery(query, today), ...pageQuery(page), type: type || undefined };
  const [table] = useLoad(
    () => api.get<MovementTable>('/reports/movement-table', params),
    JSON.stringify(params),
  );
  const go = (next: { type?: string; page?: number }) =>
    navigate('/movements', {
      ...dashboardParams(query),
      type: next.type ?? type,
      page: next.page && next.page > 1 ? String(next.page) : undefined,
    });

  return (
    <main>
      <h1>MRR movements</h1>
      <FilterBar path="/movements" query={query} today={today} extra={{ type }} />
      <label class="filters">
        Kind
        <select name="type" value={type} onChange={(e) => go({ type: e.currentTarget.value, page: 1 })}>
          <option value="">All movements</option>
          {MOVEMENTS.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </label>
      {table.state === 'loading' && <p class="status">Loading movements…</p>}
      {table.state === 'error' && (
        <p class="error" role="alert">
          The movements could not be loaded: {table.message}
        </p>
      )}
      {table.state === 'done' && (
        <>
          <header class="panel-head">
            <Pager
              page={page}
              shown={Math.min(PAGE_SIZE, table.value.result.list.length)}
              hasNext={table.value.result.list.length > PAGE_SIZE}
              onPage={(next) => go({ page: next })}
            />
            <button
              type="button"
              class="secondary"
              onClick={() =>
                movementsCsv(
                  'movements.csv',
                  table.value.result.list.slice(0, PAGE_SIZE),
                  table.value.currency,
                )
              }
            >
              Download CSV
            </button>
          </header>
          {table.value.result.list.length === 0 ? (
            <p class="empty">No movements in this period{type ? ` of kind ${type}` : ''}.</p>
          ) : (
            <MovementRows
              list={table.value.result.list.slice(0, PAGE_SIZE)}
              currency={table.value.currency}
            />
          )}
        </>
      )}
    </main>
  );
}
