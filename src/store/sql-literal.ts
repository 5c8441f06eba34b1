/** `text` as an SQL string literal, whatever `standard_conforming_strings` says. */
export const literal = (text: string) => `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * What a statement's text holds besides parameters, each skipped whole so that a `$1` inside it
 * stays as it is: escaped and plain string literals, quoted identifiers, comments and
 * dollar-quoted strings. Last, a parameter `$n` not inside an identifier (where PostgreSQL
 * allows `$`).
 */
const TOKENS =
  /(?<![\w$])[Ee]'(?:[^'\\]|''|\\[\s\S])*'|'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|(\$[A-Za-z_]\w*\$|\$\$)[\s\S]*?\1|(?<![\w$])\$(\d+)/g;

/** A parameter as the literal that stands for it, as the drivers send it. */
function parameterLiteral(value: unknown, position: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new RangeError(`parameter $${position} holds a NUL character`);
    return literal(value);
  }
  if (typeof value === 'number' && Number.isFinite(value)) return literal(String(value));
  if (typeof value === 'boolean') return literal(String(value));
  if (value instanceof Date) return literal(value.toISOString());
  throw new TypeError(`parameter $${position} is not text, a finite number, a boolean, a date or null`);
}

/**
 * `sql` with each parameter `$n` replaced by the n-th value written as a literal, for statements
 * that take no parameters (COPY). A string literal has no type of its own, as a parameter has
 * none, so each takes the type its place in the statement asks for.
 */
export function withLiterals(sql: string, params: readonly unknown[]): string {
  return sql.replace(TOKENS, (token: string, _quote: string | undefined, position: string | undefined) => {
    if (position === undefined) return token;
    const index = Number(position) - 1;
    if (index < 0 || index >= params.length) throw new RangeError(`no parameter $${position}`);
    return parameterLiteral(params[index], position);
  });
}
