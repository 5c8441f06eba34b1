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

  it('takes offsets up to 14 hours and 59 minutes', () => {
    expect(parseIsoInstant('2025-01-15T10:30:00+14:00')).toBe('2025-01-14T20:30:00.000Z');
    expect(parseIsoInstant('2025-01-15T10:30:00-12:59')).toBe('2025-01-15T23:29:00.000Z');
    for (const text of ['2025-01-15T10:30:00+25:00', '2025-01-15T10:30:00+15', '2025-01-15T10:30:00-01:60']) {
      expect(parseIsoInstant(text), text).toBeUndefined();
      expect(parseIsoDay(text), text).toBeUndefined();
    }
  });

  it('keeps instants within the years 0001 to 9999, offsets applied', () => {
    expect(parseIsoInstant('0001-01-01')).toBe('0001-01-01T00:00:00.000Z');
    expect(parseIsoInstant('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59.000Z');
    for (const text of ['0000-06-01', '0001-01-01T00:00:00+05:00', '9999-12-31T23:00:00-05:00']) {
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
    for (const text of ['2025-0a-15', '2025-00-15', '2025-01-00', '2025/01/15', '+025-01-15', '0000-01-01']) {
      expect(parseIsoDay(text), text).toBeUndefined();
    }
  });
});
