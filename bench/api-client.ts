/** The few calls the benchmark makes to a running server, with its admin key. */
export class ApiClient {
  /**
   * `connectionPerCall`: each call on a connection of its own, which a cluster primary hands to
   * its workers in turn, so that calls one after the other reach every worker.
   */
  constructor(
    readonly url: string,
    readonly key: string,
    private readonly options: { connectionPerCall?: boolean } = {},
  ) {}

  get headers(): Record<string, string> {
    return { authorization: `Bearer ${this.key}` };
  }

  private get callHeaders(): Record<string, string> {
    return this.options.connectionPerCall ? { ...this.headers, connection: 'close' } : this.headers;
  }

  /** POSTs a JSON body and returns the answer's text; fails unless the answer is a success. */
  async post(path: string, body: unknown): Promise<string> {
    const response = await fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: { ...this.callHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 500)}`);
    return text;
  }

  /** POSTs a JSON body and fails unless the server stored every item. */
  async write(path: string, items: readonly unknown[]): Promise<void> {
    const text = await this.post(path, items);
    const body = JSON.parse(text) as { result?: unknown };
    const refused = Array.isArray(body.result)
      ? (body.result as { import_status?: string }[]).find((item) => item.import_status !== 'inserted')
      : undefined;
    if (refused) throw new Error(`POST ${path} refused an item: ${JSON.stringify(refused)}`);
  }

  /** GETs a path: the answer's status, text and headers, whatever the status. */
  async get(path: string): Promise<{ status: number; text: string; headers: Headers }> {
    const response = await fetch(`${this.url}${path}`, { headers: this.callHeaders });
    return { status: response.status, text: await response.text(), headers: response.headers };
  }

  /** GETs a path and returns the body's text with the answer's headers; fails unless the answer is 200. */
  async answer(path: string): Promise<{ text: string; headers: Headers }> {
    const { status, text, headers } = await this.get(path);
    if (status !== 200) throw new Error(`GET ${path}: ${status} ${text.slice(0, 300)}`);
    return { text, headers };
  }

  /** GETs a path and returns the body's text; fails unless the answer is 200. */
  async read(path: string): Promise<string> {
    return (await this.answer(path)).text;
  }
}
