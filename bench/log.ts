/** A progress line on stderr, with the time of day, leaving stdout to the results. */
export const log = (message: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
