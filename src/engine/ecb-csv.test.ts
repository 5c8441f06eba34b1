import { describe, expect, it } from 'vitest';
import { EcbCsvError, parseEcbCsv } from './ecb-csv.js';

describe('parseEcbCsv', () => {
  it('reads the history layout: ISO dates, N/A and empty values, the trailing comma column', () => {
    const text = [
      'Date,USD,JPY,CYP,GBP,',
      '2020-03-03,1.1117,119.77,N/A,0.8705,',
      '2020-03-02,1.1122,119.82,N/A,,',
      '',
    ].join('\n');
    expect(parseEcbCsv(text)).toEqual([
      { day: '2020-03-03', currency: 'usd', perEur: 1.1117 },
      { day: '2020-03-03', currency: 'jpy', perEur: 119.77 },
      { day: '2020-03-03', currency: 'gbp', perEur: 0.8705 },
      { day: '2020-03-02', currency: 'usd', perEur: 1.1122 },
      { day: '2020-03-02', currency: 'jpy', perEur: 119.82 },
    ]);
  });

  it("reads the ECB single-day layout: '13 April 2026', spaces after commas, CRLF, a BOM", () => {
    const text = '\uFEFFDate, USD, JPY, \r\n13 April 2026, 1.1684, 186.75, \r\n';
    expect(parseEcbCsv(text)).toEqual([
      { day: '2026-04-13', currency: 'usd', perEur: 1.1684 },
      { day: '2026-04-13', currency: 'jpy', perEur: 186.75 },
    ]);
  });

  it('reads a file without the trailing comma, and a header with no data lines', () => {
    expect(parseEcbCsv('Date,USD\n2024-01-02,1.0956')).toEqual([
      { day: '2024-01-02', currency: 'usd', perEur: 1.0956 },
    ]);
    expect(parseEcbCsv('Date,USD,\n')).toEqual([]);
  });

  it.each([
    ['', 1, 'expected a header starting with "Date"'],
    ['Day,USD\n2024-01-02,1.1', 1, 'expected a header starting with "Date"'],
    ['Date,usd\n', 1, '"usd" is not a currency code'],
    ['Date,USD,,GBP\n', 1, '"" is not a currency code'],
    ['Date,EUR\n', 1, 'EUR is the base'],
    ['Date,USD,USD\n', 1, 'a currency appears in more than one column'],
    ['Date,USD,\n2024-01-02,1.1\n', 2, '2 fields, the header has 3'],
    ['Date,USD\n2024-01-02,1.1\n2024-02-30,1.1\n', 3, '"2024-02-30" is not a date'],
    ['Date,USD\n2 Janvier 2024,1.1\n', 2, '"2 Janvier 2024" is not a date'],
    ['Date,USD\n2024-01-02,1.1\n\n2024-01-02,1.2\n', 4, '2024-01-02 appears twice'],
    ['Date,USD\n2024-01-02,abc\n', 2, '"abc" in USD is not a positive rate'],
    ['Date,USD\n2024-01-02,-1.1\n', 2, '"-1.1" in USD is not a positive rate'],
    ['Date,USD\n2024-01-02,0\n', 2, '"0" in USD is not a positive rate'],
    ['Date,USD,\n2024-01-02,1.1,7\n', 2, '"7" in the unnamed last column is not a positive rate'],
  ])('rejects %j at line %i', (text, line, reason) => {
    const error = (() => {
      try {
        parseEcbCsv(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(EcbCsvError);
    expect((error as EcbCsvError).line).toBe(line);
    expect((error as EcbCsvError).message).toContain(`Line ${line}: ${reason}`);
  });
});
