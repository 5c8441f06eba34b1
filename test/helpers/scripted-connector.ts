import type { Connector, ConnectorSession, SourcePage } from '../../src/connectors/connector.js';
import type { RecordsPage } from '../../src/services/connector-pages.js';

type Kind = keyof RecordsPage;

/** A page read: which kind, from which cursor. */
export interface PageCall {
  kind: string;
  cursor: string | null;
}

/**
 * A connector over fixed records, `pageSize` to a page, cursors being offsets. `beforePage`
 * runs before each page is answered: a test throws from it or makes it wait.
 */
export function scriptedConnector(options: {
  records: Required<RecordsPage>;
  pageSize: number;
  beforePage?: (call: PageCall) => Promise<void> | void;
  calls?: PageCall[];
}): Connector {
  const kinds: Kind[] = ['customers', 'plans', 'subscriptions', 'invoices'];
  const session: ConnectorSession = {
    kinds,
    account: () => Promise.resolve({ id: 'acct_scripted', name: 'Scripted Inc', livemode: false }),
    async page(kind, cursor): Promise<SourcePage> {
      options.calls?.push({ kind, cursor });
      await options.beforePage?.({ kind, cursor });
      const all = options.records[kind as Kind];
      const from = cursor === null ? 0 : Number(cursor);
      const items = all.slice(from, from + options.pageSize);
      const end = from + items.length;
      return {
        records: { [kind]: items },
        next: end < all.length ? String(end) : null,
        fetched: items.length,
      };
    },
  };
  return { type: 'processor-a', system: 'Scripted', needsSite: false, open: () => session };
}

/** A promise and the function that settles it, for a page a test holds back. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
