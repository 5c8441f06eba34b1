import type { FastifyInstance } from 'fastify';
import { ITEMS_PER_TURN, nextTurn } from '../services/bulk-import.js';
import { InvalidInputError } from '../services/errors.js';
import { unstorableReason as problem } from '../services/storable-text.js';
import { CsvBody } from './csv-body.js';

/** Where a string sits: the key path from the part's root, and whether it is a key or a value. */
interface Finding {
  path: string[];
  isKey: boolean;
  message: string;
}

/** The first unstorable string in a parsed value, keys included; walked without recursion, so depth cannot overflow the stack. */
function findUnstorable(root: unknown): Finding | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      const message = problem(value);
      if (message) return { path, isKey: false, message };
    } else if (typeof value === 'object' && value !== null) {
      const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
      const children: { value: unknown; path: string[] }[] = [];
      for (const [key, child] of entries) {
        const name = String(key);
        const message = problem(name);
        if (message) return { path, isKey: true, message };
        children.push({ value: child, path: [...path, name] });
      }
      // Reversed onto the stack, so the first field in the input is reported first.
      stack.push(...children.reverse());
    }
  }
  return undefined;
}

/**
 * `findUnstorable` for a body, an array's items a few hundred per turn of the event loop: a
 * bulk body is 5,000 items, and other requests' transactions wait for this thread meanwhile.
 */
async function findUnstorableInTurns(body: unknown): Promise<Finding | undefined> {
  if (!Array.isArray(body)) return findUnstorable(body);
  for (let index = 0; index < body.length; index++) {
    if (index > 0 && index % ITEMS_PER_TURN === 0) await nextTurn();
    const finding = findUnstorable(body[index]);
    if (finding) return { ...finding, path: [String(index), ...finding.path] };
  }
  return undefined;
}

/** How each part of a request, and one of its fields, is named in messages (as in errors.ts). */
const PARTS = {
  params: { whole: 'path', field: 'path parameter', key: 'a path parameter name' },
  query: { whole: 'query string', field: 'query parameter', key: 'a parameter name' },
  body: { whole: 'body', field: 'body field', key: 'a key' },
} as const;

function invalid(part: keyof typeof PARTS, finding: Finding): InvalidInputError {
  const names = PARTS[part];
  const message = finding.isKey ? `${names.key} ${finding.message}` : finding.message;
  if (finding.path.length === 0) return new InvalidInputError(`Invalid ${names.whole}: ${message}`);
  return new InvalidInputError(`Invalid ${names.field} "${finding.path.join('.')}": ${message}`);
}

function checkCsv(csv: CsvBody): void {
  for (const row of csv.rows) {
    const finding = findUnstorable(row.cells);
    if (!finding) continue;
    const message = finding.isKey ? `a column name ${finding.message}` : finding.message;
    const where = finding.isKey ? 'header' : `row ${row.line}, column "${finding.path.join('.')}"`;
    throw new InvalidInputError(`Invalid CSV ${where}: ${message}`);
  }
}

/**
 * Refuses, before any route runs, a request whose path parameters, query or body (JSON or CSV)
 * hold a string no store can keep: one check for every route, rather than one per field.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of ['params', 'query'] as const) {
      const finding = findUnstorable(request[part]);
      if (finding) throw invalid(part, finding);
    }
    if (request.body instanceof CsvBody) return checkCsv(request.body);
    // An uploaded file's bytes: the uploads service checks its cells once it has read them.
    if (Buffer.isBuffer(request.body)) return;
    const finding = await findUnstorableInTurns(request.body);
    if (finding) throw invalid('body', finding);
  });
}
