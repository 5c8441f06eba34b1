import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv-text.js';

describe('csvCell', () => {
  it('turns text that a spreadsheet would run as a formula into text', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-minus')).toBe("'-minus");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
  });

  it('keeps numbers, negative ones included, and plain text as they are', () => {
    expect(csvCell(-4900)).toBe('-4900');
    expect(csvCell(0)).toBe('0');
    expect(csvCell('Acme a=b')).toBe('Acme a=b');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('Smith, Jane')).toBe('"Smith, Jane"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});

describe('csvLine', () => {
  it('joins the cells and ends the record with CRLF', () => {
    expect(csvLine(['a', 1, null, '-x'])).toBe("a,1,,'-x\r\n");
  });
});
