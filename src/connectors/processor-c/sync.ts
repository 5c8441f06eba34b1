import type recurly from 'recurly';
import type { AddOn, Invoice, LineItem, Pager, Plan, Subscription } from 'recurly';
import type { ChangesPage, ConnectorSession, SourcePage } from '../connector.js';
import type { RecordsPage } from '../../services/connector-pages.js';
import { callRecurly, type RecurlyApiSettings, recurlyClient, RecurlyNotFoundError } from './client.js';
import { mapAccount, mapAddOn, mapInvoice, mapPlan, mapSubscription } from './mapping.js';

type Params = Record<string, string | number>;
type ListCall<T> = (options: { params: Params }) => Pager<T>;

/** What the package's pager knows after reading a page: the `next` link and whether more follow. */
interface PagerState {
  path: string | null;
  done: boolean;
}

/** One page of a list and the `next` link after it (null after the last page). */
interface ListPage<T> {
  items: T[];
  next: string | null;
}

/** The query of a `next` link (`/accounts?cursor=...&limit=200&order=asc&sort=created_at`) as params. */
function paramsOf(next: string): Params {
  return Object.fromEntries(new URL(next, 'https://v3.recurly.com').searchParams);
}

/**
 * Reads a Recurly site kind by kind, each kind one list endpoint paged by Recurly's cursor: the
 * `next` link a list page ends with is the import's checkpoint, so an import resumes from the
 * page after the last one stored, in a new process too. An invoice comes with its line items
 * (the rest read when Recurly says `has_more_line_items`) and its transactions.
 */
export function recurlySession(apiKey: string, settings: RecurlyApiSettings): ConnectorSession {
  const client: recurly.Client = recurlyClient(apiKey, settings);
  const call = <T>(fn: () => Promise<T>) => callRecurly(fn, settings.retry);
  const limit = Math.min(settings.pageSize ?? 200, 200);

  /**
   * One page through the package's pager: from the list's start with `params`, or from a `next`
   * link. Each attempt builds a new pager, since the pager sends its params with the first
   * request only.
   */
  function readPage<T>(list: ListCall<T>, cursor: string | null, params: Params): Promise<ListPage<T>> {
    const query = cursor === null ? { limit, ...params } : paramsOf(cursor);
    return call(async () => {
      const pager = list({ params: query });
      const page = await pager.eachPage()[Symbol.asyncIterator]().next();
      const state = pager as unknown as PagerState;
      const items = page.done === true ? [] : page.value;
      return { items, next: state.done || !state.path ? null : state.path };
    });
  }

  /** Every page of a list that the caller reads in full. */
  async function readAll<T>(list: ListCall<T>, params: Params = {}): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const page: ListPage<T> = await readPage(list, cursor, params);
      items.push(...page.items);
      cursor = page.next;
    } while (cursor !== null);
    return items;
  }

  /** Plans read so far, by code: the interval of a pending change's plan. */
  const knownPlans = new Map<string, Plan>();

  /** Reads the plans named and not read yet (a resumed import, a resync). */
  async function knowPlans(codes: Iterable<string>): Promise<void> {
    for (const code of new Set(codes)) {
      if (knownPlans.has(code)) continue;
      knownPlans.set(code, await call(() => client.getPlan(`code-${code}`)));
    }
  }

  /** The plans of the subscriptions and of their pending changes. */
  function plansNamed(subscriptions: readonly Subscription[]): string[] {
    return subscriptions.flatMap((sub) =>
      [sub.plan?.code, sub.pendingChange?.plan?.code].flatMap((code) => (code ? [code] : [])),
    );
  }

  /** The subscriptions' records; the plans their pending changes move to are read for their intervals. */
  async function subscriptionRecords(subscriptions: readonly Subscription[], billed?: readonly LineItem[]) {
    await knowPlans(
      subscriptions.flatMap((sub) => {
        const code = sub.pendingChange ? (sub.pendingChange.plan?.code ?? sub.plan?.code) : undefined;
        return code ? [code] : [];
      }),
    );
    const planOf = (code: string) => knownPlans.get(code);
    return subscriptions.flatMap((subscription) => mapSubscription(subscription, { planOf, billed }));
  }

  async function planRecords(plans: readonly Plan[]) {
    const records: object[] = [];
    for (const plan of plans) {
      knownPlans.set(plan.code!, plan);
      records.push(mapPlan(plan));
      const addOns = await readAll<AddOn>((options) => client.listPlanAddOns(plan.id!, options));
      records.push(...addOns.map((addOn) => mapAddOn(plan, addOn)));
    }
    return records;
  }

  /** Each invoice with all its line items. */
  async function withLines(invoices: readonly Invoice[]) {
    const read = [];
    for (const invoice of invoices) {
      const lines = invoice.hasMoreLineItems
        ? await readAll<LineItem>((options) => client.listInvoiceLineItems(invoice.id!, options))
        : (invoice.lineItems ?? []);
      read.push({ invoice, lines });
    }
    return read;
  }

  async function invoiceRecords(invoices: readonly Invoice[]) {
    return (await withLines(invoices)).map(({ invoice, lines }) => mapInvoice(invoice, lines));
  }

  const byCreation = { sort: 'created_at', order: 'asc' };
  const kinds: Record<string, (cursor: string | null) => Promise<SourcePage>> = {
    async accounts(cursor) {
      const page = await readPage((options) => client.listAccounts(options), cursor, byCreation);
      return {
        records: { customers: page.items.map(mapAccount) },
        next: page.next,
        fetched: page.items.length,
      };
    },
    async plans(cursor) {
      const page = await readPage((options) => client.listPlans(options), cursor, byCreation);
      return {
        records: { plans: await planRecords(page.items) },
        next: page.next,
        fetched: page.items.length,
      };
    },
    async subscriptions(cursor) {
      const page = await readPage((options) => client.listSubscriptions(options), cursor, byCreation);
      return {
        records: { subscriptions: await subscriptionRecords(page.items) },
        next: page.next,
        fetched: page.items.length,
      };
    },
    async invoices(cursor) {
      const page = await readPage((options) => client.listInvoices(options), cursor, byCreation);
      return {
        records: { invoices: await invoiceRecords(page.items) },
        next: page.next,
        fetched: page.items.length,
      };
    },
  };

  /** Objects updated at or after `since`, oldest first, by `updated_at`. */
  const changedSince = (since: string) => ({ sort: 'updated_at', order: 'asc', begin_time: since });

  return {
    kinds: Object.keys(kinds),
    async account() {
      const site = await call(() => client.listSites({ params: { limit: 1 } }).first());
      if (!site) throw new RecurlyNotFoundError('Recurly: the key reaches no site');
      return { id: site.id!, name: site.subdomain ?? null, livemode: site.mode === 'production' };
    },
    async customerRecords(customerId): Promise<RecordsPage | false> {
      const code = `code-${customerId}`;
      let account;
      try {
        account = await call(() => client.getAccount(code));
      } catch (error) {
        if (error instanceof RecurlyNotFoundError) return false;
        throw error;
      }
      const subscriptions = await readAll((options) => client.listAccountSubscriptions(code, options));
      const invoices = await withLines(
        await readAll((options) => client.listAccountInvoices(code, options), byCreation),
      );
      // The plans its subscriptions and their pending changes name, which may be newer than the last import.
      const plans = [];
      for (const planCode of new Set(plansNamed(subscriptions)))
        plans.push(await call(() => client.getPlan(`code-${planCode}`)));
      // Read before the subscriptions, whose pending changes take their plans' intervals from them.
      const planRecordsRead = await planRecords(plans);
      // The whole account's lines: add-ons billed there and gone from their subscription end.
      const billed = invoices.flatMap(({ lines }) => lines);
      return {
        customers: [mapAccount(account)],
        plans: planRecordsRead,
        subscriptions: await subscriptionRecords(subscriptions, billed),
        invoices: invoices.map(({ invoice, lines }) => mapInvoice(invoice, lines)),
      };
    },
    async changes(cursor): Promise<ChangesPage> {
      // Recurly v3 has no events list: the feed is the accounts, subscriptions and invoices
      // updated since the cursor, a time (begin_time is inclusive, so the boundary is read twice).
      if (cursor === null) return { customerIds: [], cursor: new Date().toISOString(), more: false };
      const lists = [
        await readPage((options) => client.listAccounts(options), null, changedSince(cursor)),
        await readPage((options) => client.listSubscriptions(options), null, changedSince(cursor)),
        await readPage((options) => client.listInvoices(options), null, changedSince(cursor)),
      ] as ListPage<{
        updatedAt?: Date | null;
        code?: string | null;
        account?: { code?: string | null } | null;
      }>[];
      const customerIds = new Set<string>();
      for (const list of lists)
        for (const item of list.items) {
          const code = item.code ?? item.account?.code;
          if (code) customerIds.add(code);
        }
      const lastUpdate = (list: (typeof lists)[number]) =>
        list.items.at(-1)?.updatedAt?.toISOString() ?? cursor;
      const unfinished = lists.filter((list) => list.next !== null);
      // With a list unfinished, go on from the earliest point any unfinished list reached;
      // else from the latest update read.
      let next =
        unfinished.length > 0 ? unfinished.map(lastUpdate).sort()[0]! : lists.map(lastUpdate).sort().at(-1)!;
      // A whole page updated at the cursor's own millisecond would never move it: step past it
      // (what else was updated in that millisecond is missed; the next import brings it).
      if (unfinished.length > 0 && Date.parse(next) <= Date.parse(cursor))
        next = new Date(Date.parse(cursor) + 1).toISOString();
      return { customerIds: [...customerIds].sort(), cursor: next, more: unfinished.length > 0 };
    },
    async page(kind, cursor) {
      const read = kinds[kind];
      if (!read) throw new Error(`Recurly has no object kind "${kind}" to import`);
      return read(cursor);
    },
  };
}
