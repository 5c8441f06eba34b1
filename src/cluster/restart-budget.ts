/**
 * How many unexpected worker exits the primary replaces: `limit` of them within `windowMs` means
 * the workers die as fast as they start (a database that refuses them, a broken release), and
 * forking again would only loop.
 */
export function restartBudget(limit: number, windowMs: number) {
  const exits: number[] = [];
  return {
    limit,
    windowMs,
    /** Records an exit at `now` (ms); false once it is the `limit`-th within the window. */
    allows(now: number): boolean {
      exits.push(now);
      while (exits.length > 0 && exits[0]! <= now - windowMs) exits.shift();
      return exits.length < limit;
    },
  };
}
