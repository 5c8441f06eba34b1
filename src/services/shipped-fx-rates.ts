import { readFileSync } from 'node:fs';
import { type FxRate, FxTable } from '../engine/fx-table.js';
import { readEcbFile } from './ecb-file.js';

// Resolved from the package root, which both src/services and dist/services sit two levels below,
// so the source, the tests and the compiled build all read the one committed asset.
const SHIPPED_HISTORY = new URL('../../assets/fx/ecb-eurofxref-hist.zip', import.meta.url);

let rates: readonly FxRate[] | undefined;
let table: FxTable | undefined;

/** The ECB history shipped with the project, parsed on first use and kept for the process. */
export function shippedFxRates(): readonly FxRate[] {
  rates ??= readEcbFile(readFileSync(SHIPPED_HISTORY));
  return rates;
}

/** The table of the shipped history alone: what every store without loaded rates uses. */
export function shippedFxTable(): FxTable {
  table ??= FxTable.build(shippedFxRates());
  return table;
}
