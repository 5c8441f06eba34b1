import { describe, expect, it } from 'vitest';
import { csvRows } from './csv-rows.js';

describe('csvRows', () => {
  const columns = { id: 'text', amount: 'bigint', paid: 'boolean', day: 'date', tags: 'jsonb' };

  it('writes the lead value, then each column in order, strings quoted', () => {
    expect(
      csvRows('acc', columns, [{ id: 'a', amount: 1250, paid: true, day: '2025-01-31', tags: ['x'] }]),
    ).toBe('"acc","a",1250,true,"2025-01-31","[""x""]"\n');
  });

  it('leaves NULL unquoted and empty, so an empty string stays a string', () => {
    expect(csvRows('acc', columns, [{ id: '', amount: null, paid: false, tags: null }])).toBe(
      '"acc","",,false,,\n',
    );
  });

  it('doubles quotes and keeps commas and line breaks inside the quotes', () => {
    expect(csvRows('acc', { note: 'text' }, [{ note: 'say "hi",\nthen go' }, { note: 'b' }])).toBe(
      '"acc","say ""hi"",\nthen go"\n"acc","b"\n',
    );
  });

  it('writes a JSON string value of a json column as JSON text', () => {
    expect(csvRows('acc', { v: 'jsonb' }, [{ v: 'plain' }])).toBe('"acc","""plain"""\n');
  });
});
