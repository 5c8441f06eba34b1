// ICU's list holds every active ISO 4217 code (and a few historic ones); it ships with Node.
const CODES = new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));

/** Lower-cases an ISO 4217 code given in any case, or returns undefined when it is not one. */
export function normaliseCurrency(code: string): string | undefined {
  const lower = code.toLowerCase();
  return CODES.has(lower) ? lower : undefined;
}
