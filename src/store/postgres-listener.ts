import pg from 'pg';

/** The wait before connecting again after a loss, doubled after each failed attempt. */
const RETRY_MS = { first: 1_000, most: 60_000 };

/**
 * LISTENs on `channel` over a connection of its own: a pool's connections are handed from
 * statement to statement and would stop hearing once released. A lost connection is made again,
 * after a wait that grows while the server stays away; TCP keep-alive notices a connection a
 * network device dropped without a word, which would otherwise go on hearing nothing.
 */
export async function listenOn(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onLost: (error: unknown) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let attempt: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RETRY_MS.first;
  let closed = false;

  /** Connects and listens; a failure of the first attempt is the caller's, later ones are retried. */
  async function connect(first: boolean): Promise<void> {
    const next = new pg.Client({ connectionString, keepAlive: true });
    let gone = false;
    let listening = false;
    const lose = (error: unknown) => {
      if (gone) return;
      gone = true;
      next.end().catch(() => {});
      if (client === next) client = undefined;
      // A first attempt's failure is the caller's to handle.
      if (closed || (first && !listening)) return;
      // A failed attempt loses its connection too, which sets the next one going.
      retry = setTimeout(() => {
        attempt = connect(false).catch(() => {});
      }, delay);
      retry.unref();
      delay = Math.min(delay * 2, RETRY_MS.most);
      try {
        onLost(error);
      } catch {
        // Reporting the loss must not stop the listening from coming back.
      }
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
    // Closed while this attempt was under way: it must not go on listening.
    if (closed) {
      gone = true;
      await next.end();
      return;
    }
    listening = true;
    client = next;
    delay = RETRY_MS.first;
  }

  await connect(true);
  return async () => {
    closed = true;
    clearTimeout(retry);
    await attempt;
    await client?.end();
  };
}
