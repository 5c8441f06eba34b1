import pg from 'pg';

/** The wait before connecting again after a loss, doubled after each failed attempt. */
const RETRY_MS = { first: 1_000, most: 60_000 };

/**
 * LISTENs on `channel` over a connection of its own: a pool's connections are handed from
 * statement to statement and would stop hearing once released. A lost connection is made again,
 * after a wait that grows while the server stays away.
 */
export async function listenOn(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onLost: (error: unknown) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RETRY_MS.first;
  let closed = false;

  /** Connects and listens; a failure of the first attempt is the caller's, later ones are retried. */
  async function connect(first: boolean): Promise<void> {
    const next = new pg.Client({ connectionString });
    let gone = false;
    const lose = (error: unknown) => {
      if (gone) return;
      gone = true;
      next.end().catch(() => {});
      if (client === next) client = undefined;
      if (closed || first) return;
      onLost(error);
      // A failed attempt loses its connection too, which sets the next one going.
      retry = setTimeout(() => {
        connect(false).catch(() => {});
      }, delay);
      retry.unref();
      delay = Math.min(delay * 2, RETRY_MS.most);
    };
    next.on('error', lose);
    next.on('end', () => lose(new Error(`The connection listening on ${channel} ended`)));
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lose(error);
      throw error;
    }
    client = next;
    delay = RETRY_MS.first;
    first = false;
  }

  await connect(true);
  return async () => {
    closed = true;
    clearTimeout(retry);
    await client?.end();
  };
}
