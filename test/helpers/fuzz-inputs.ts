import fc from 'fast-check';
import { type FieldSchema, fieldsOf } from './openapi-routes.js';

/** Keys that name something on `Object.prototype`, or poison it when assigned. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

/** Texts that broke something once (issue 14) or sit on a boundary: dates, offsets, ranges, numbers as text. */
const TRICKY_TEXTS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uD83D\uDE00',
  ...PROTOTYPE_KEYS,
  'custom_constructor',
  '0000-01-01',
  '0001-01-01T00:00:00+05:00',
  '9999-12-31',
  '9999-12-31T23:00:00-05:00',
  '2026-02-30',
  '2026-01-01T00:00:00+25:00',
  '2026-01-01T00:00:00-00:60',
  '20240101-99991231',
  '00010101-20261231',
  '19700101-21001231',
  '20261231-20240101',
  '1969-12',
  '2100-12',
  'NaN',
  '-1',
  '1e400',
  '9007199254740993',
  'x'.repeat(300),
];

/** Values a real client would send, so that requests get past the first check and reach the work. */
const PLAUSIBLE_TEXTS = [
  'c1',
  'basic',
  'usd',
  'eur',
  'US',
  'month',
  'day',
  'week',
  'year',
  'true',
  'false',
  '1',
  '10',
  'active',
  'industry',
  'custom_industry',
  'retail',
  '2026-01-01',
  '20260101-20261231',
  '20160101-20261231',
];

const TRICKY_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
];

/** Any UTF-16 code unit, lone surrogates and NUL included, weighted towards the troublesome ones. */
const codeUnit = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe, 0x7f) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }) },
);

export const text: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...TRICKY_TEXTS),
  fc.constantFrom(...PLAUSIBLE_TEXTS),
  fc.array(codeUnit, { maxLength: 12 }).map((units) => String.fromCharCode(...units)),
);

/**
 * A JSON value as entries rather than an object, so that a body can carry own `__proto__` keys
 * and duplicates exactly as a client may send them.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { entries: [string, JsonValue][] };

export function jsonText(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(',')}}`;
  }
  // JSON has no NaN or Infinity; a number that cannot be written is sent as the largest there is.
  if (typeof value === 'number' && !Number.isFinite(value)) return '1e308';
  return JSON.stringify(value);
}

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  text,
  fc.constantFrom(...TRICKY_NUMBERS),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

const { value: anyJson } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc
      .array(fc.tuple(fc.oneof(text, fc.constantFrom(...PROTOTYPE_KEYS)), tie('value')), { maxLength: 3 })
      .map((entries) => ({ entries })),
  ),
}));

/** An object with some of the documented fields (nested ones too) holding wrong or tricky values, and stray keys. */
function objectLike(schema: FieldSchema, depth: number): fc.Arbitrary<JsonValue> {
  const fields = Object.entries(fieldsOf(schema));
  const field = fields.length === 0 ? text : fc.constantFrom(...fields.map(([name]) => name));
  const valueOf = (name: string): fc.Arbitrary<JsonValue> => {
    const nested = fieldsOf(schema)[name];
    return depth > 0 && nested !== undefined && Object.keys(fieldsOf(nested)).length > 0
      ? fc.oneof(
          objectLike(nested, depth - 1),
          fc.array(objectLike(nested, depth - 1), { maxLength: 2 }),
          anyJson,
        )
      : anyJson;
  };
  const entry = fc.oneof(
    {
      weight: 5,
      arbitrary: field.chain((name) => valueOf(name).map((value): [string, JsonValue] => [name, value])),
    },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(text, fc.constantFrom(...PROTOTYPE_KEYS)), anyJson) },
  );
  return fc.array(entry, { maxLength: 6 }).map((entries) => ({ entries }));
}

/** A mutated JSON body for a route: usually shaped like the documented one, sometimes an array of such, sometimes anything. */
export function jsonBody(schema: FieldSchema): fc.Arbitrary<JsonValue> {
  const shaped = objectLike(schema, 2);
  return fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 2, arbitrary: fc.array(shaped, { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: anyJson },
  );
}

/** A CSV body whose header names documented fields (or `custom_` columns) and whose cells are tricky texts. */
export function csvBody(schema: FieldSchema): fc.Arbitrary<string> {
  const names = Object.keys(fieldsOf(schema));
  const column = fc.oneof(
    fc.constantFrom('id', ...names),
    text,
    fc.constantFrom('custom___proto__', 'custom_constructor'),
  );
  return fc
    .tuple(
      fc.uniqueArray(column, { minLength: 1, maxLength: 4 }),
      fc.array(fc.array(text, { maxLength: 4 }), { maxLength: 3 }),
    )
    .map(([header, rows]) => [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n'));
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Percent-encodes any string, lone surrogates included: `encodeURIComponent` refuses them, so
 * each is written as the three bytes a lenient encoder (WTF-8) would send.
 */
export function encodeComponent(value: string): string {
  let encoded = '';
  for (const character of value) {
    const unit = character.charCodeAt(0);
    if (character.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      encoded += encodeURIComponent(character);
    }
  }
  return encoded;
}
