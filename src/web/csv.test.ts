import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';

describe('CSV of what a chart or table shows', () => {
  it('quotes what needs it and leaves missing values empty', () => {
    expect(
      toCsv(
        ['date', 'name', 'mrr'],
        [
          ['2026-10-01', 'Acme, "the" company', 12500],
          ['2026-11-01', null, -500],
        ],
      ),
    ).toBe('date,name,mrr\r\n2026-10-01,"Acme, ""the"" company",12500\r\n2026-11-01,,-500\r\n');
  });

  it('writes a name a spreadsheet would run as a formula as text', () => {
    expect(toCsv(['name'], [['=1+2']])).toBe("name\r\n'=1+2\r\n");
  });
});
