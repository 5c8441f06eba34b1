import type { FxService } from './fx-service.js';

export type CurrencyCheck = (currency: unknown) => string | undefined;

/**
 * Why a record's currency cannot be accepted, if it cannot: every amount must convert to a
 * report's base currency, so a currency needs exchange rates, not only an ISO 4217 code.
 */
/**
 * Take it before opening a transaction: on PGlite a query from outside a running transaction
 * waits for that transaction, so looking rates up from inside one would wait forever.
 */
export async function currencyChecker(fx: FxService, field = 'currency'): Promise<CurrencyCheck> {
  const table = await fx.table();
  return (currency) =>
    typeof currency === 'string' && !table.has(currency)
      ? `Invalid field "${field}": unknown currency "${currency}": no exchange rates for it`
      : undefined;
}
