import { strFromU8, unzipSync } from 'fflate';
import { EcbCsvError, parseEcbCsv } from '../engine/ecb-csv.js';
import type { FxRate } from '../engine/fx-table.js';
import { InvalidInputError } from './errors.js';

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]; // "PK\3\4", a zip's first local file header

function isZip(bytes: Uint8Array): boolean {
  return ZIP_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

/** The ECB publishes each rate file as a CSV and as a zip holding that one CSV; both are read. */
function csvText(bytes: Uint8Array): string {
  if (!isZip(bytes)) return strFromU8(bytes);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => file.name.toLowerCase().endsWith('.csv') });
  } catch (error) {
    throw new InvalidInputError(`The zip cannot be read: ${(error as Error).message}`);
  }
  const csvFiles = Object.values(files);
  if (csvFiles.length !== 1) {
    throw new InvalidInputError(`Expected one CSV file in the zip, found ${csvFiles.length}`);
  }
  return strFromU8(csvFiles[0]!);
}

/** Reads an ECB reference-rate file (CSV or zip); a malformed one is invalid input, line named. */
export function readEcbFile(bytes: Uint8Array): FxRate[] {
  const text = csvText(bytes);
  try {
    return parseEcbCsv(text);
  } catch (error) {
    if (error instanceof EcbCsvError) throw new InvalidInputError(`Not an ECB rate file: ${error.message}`);
    throw error;
  }
}
