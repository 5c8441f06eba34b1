import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_SPREADSHEET_BASE_URL } from '../../src/services/spreadsheet-sync.js';

describe('spreadsheet source configuration', () => {
  it('reads SPREADSHEET_BASE_URL and SPREADSHEET_SYNC_INTERVAL_SECONDS, with their defaults', () => {
    const config = loadConfig({
      SPREADSHEET_BASE_URL: 'http://127.0.0.1:8080/sheets/',
      SPREADSHEET_SYNC_INTERVAL_SECONDS: '0',
    });
    expect(config.spreadsheetBaseUrl).toBe('http://127.0.0.1:8080/sheets/');
    expect(config.spreadsheetSyncIntervalMs).toBe(0);

    const plain = loadConfig({});
    expect(plain.spreadsheetBaseUrl).toBe(DEFAULT_SPREADSHEET_BASE_URL);
    // An hour: 3600 s.
    expect(plain.spreadsheetSyncIntervalMs).toBe(3_600_000);
  });

  it('refuses a base URL that is not an absolute http(s) address, and a negative interval', () => {
    expect(() => loadConfig({ SPREADSHEET_BASE_URL: 'ftp://example.com/' })).toThrow(
      'SPREADSHEET_BASE_URL must be an absolute http(s) URL, got "ftp://example.com/"',
    );
    expect(() => loadConfig({ SPREADSHEET_SYNC_INTERVAL_SECONDS: '-1' })).toThrow(
      'SPREADSHEET_SYNC_INTERVAL_SECONDS must be an integer >= 0, got "-1"',
    );
  });
});
