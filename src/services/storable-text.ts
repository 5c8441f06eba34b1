/**
 * PostgreSQL text cannot hold U+0000, and a lone UTF-16 surrogate has no UTF-8 form, so
 * either would fail deep inside a write or a report as a 500. With the `u` flag a character
 * class matches a surrogate only when it is unpaired.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what it looks for
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;

/** Why no store can keep `text`, if none can. */
export function unstorableReason(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (!found) return undefined;
  return found[0] === '\u0000'
    ? 'must not contain the character U+0000 (NUL)'
    : 'must not contain a lone UTF-16 surrogate';
}
