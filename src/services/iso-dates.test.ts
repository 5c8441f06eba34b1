import { describe, expect, it } from 'vitest';
import { parseIsoDay, parseIsoInstant } from './iso-dates.js';

describe('parseIsoInstant', () => {
  it('reads dates as midnight UTC, zone-less times as UTC, and applies offsets', () => {
    expect(parseIsoInstant('2025-01-15')).toBe('2025-01-15T00:00:00.000Z');
    expect(parseIsoInstant('2025-01-15T10:30')).toBe('2025-01-15T10:30:00.000Z');
    expect(parseIsoInstant('2025-01-15 10:30:05.123456Z')).toBe('2025-01-15T10:30:05.123Z');
    expect(parseIsoInstant('2025-01-15T10:30:00+02:00')).toBe('2025-01-15T08:30:00.000Z');
    expect(parseIsoInstant('2025-01-15T00:30:00-0130')).toBe('2025-01-15T02:00:00.000Z');
    expect(parseIsoInstant('2024-02-29T23:59:59+05')).toBe('2024-02-29T18:59:59.000Z');
  });

  it('refuses impossible days and times and other formats', () => {
    for (const text of [
      '2025-02-29',
      '2025-13-01',
      '2025-01-15T24:00',
      '2025-01-15T10:60',
      '15/01/2025',
      '2025-1-5',
      '',
    ]) {
      expect(parseIsoInstant(text), text).toBeUndefined();
    }
  });
});

describe('parseIsoDay', () => {
  it('keeps the calendar day as written', () => {
    expect(parseIsoDay('2025-01-15')).toBe('2025-01-15');
    expect(parseIsoDay('2025-01-15T23:30:00-05:00')).toBe('2025-01-15');
    expect(parseIsoDay('2025-02-30')).toBeUndefined();
    // Leap years: every fourth, but not centuries unless divisible by 400.
    expect(parseIsoDay('2000-02-29')).toBe('2000-02-29');
    expect(parseIsoDay('1900-02-29')).toBeUndefined();
    expect(parseIsoDay('2025-04-31')).toBeUndefined();
  });

  it('reads a plain day by its digits and anything else by the pattern, alike', () => {
    expect(parseIsoDay(' 2025-01-15 ')).toBe('2025-01-15');
    expect(parseIsoDay('2024-12-31')).toBe('2024-12-31');
    for (const text of ['2025-0a-15', '2025-00-15', '2025-01-00', '2025/01/15', '+025-01-15']) {
      expect(parseIsoDay(text), text).toBeUndefined();
    }
  });
});
