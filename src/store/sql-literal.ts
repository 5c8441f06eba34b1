/** `text` as an SQL string literal, whatever `standard_conforming_strings` says. */
export const literal = (text: string) => `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * `sql` with each `$n` replaced by the n-th parameter written as a literal, for statements that
 * take no parameters (COPY). A string literal has no type of its own, as a parameter has none,
 * so each takes the type its place in the statement asks for.
 */
export function withLiterals(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, position: string) => {
    const index = Number(position) - 1;
    if (index >= params.length) throw new RangeError(`no parameter $${position}`);
    const value = params[index];
    if (value === null || value === undefined) return 'null';
    return literal(typeof value === 'string' ? value : JSON.stringify(value));
  });
}
