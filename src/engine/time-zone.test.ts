import { describe, expect, it } from 'vitest';
import { dayString } from './days.js';
import { isTimeZone, wallClock } from './time-zone.js';

const shown = (iso: string, zone: string) => {
  const clock = wallClock(new Date(iso), zone);
  return [dayString(clock.day), clock.hour];
};

describe('wallClock', () => {
  it('shows the day and hour of the zone, which may be another day than UTC', () => {
    expect(shown('2026-11-23T23:00:00Z', 'UTC')).toEqual(['2026-11-23', 23]);
    // Tokyo is UTC+9, Los Angeles UTC-8 in November.
    expect(shown('2026-11-23T23:00:00Z', 'Asia/Tokyo')).toEqual(['2026-11-24', 8]);
    expect(shown('2026-11-23T23:00:00Z', 'America/Los_Angeles')).toEqual(['2026-11-23', 15]);
    expect(shown('2026-11-24T07:59:59Z', 'America/Los_Angeles')).toEqual(['2026-11-23', 23]);
  });

  it('shows midnight as hour 0 and follows daylight saving', () => {
    expect(shown('2026-11-24T08:00:00Z', 'America/Los_Angeles')).toEqual(['2026-11-24', 0]);
    // Daylight saving time in July: UTC-7.
    expect(shown('2026-07-01T15:00:00Z', 'America/Los_Angeles')).toEqual(['2026-07-01', 8]);
  });
});

describe('isTimeZone', () => {
  it('accepts IANA names and refuses others', () => {
    expect(['UTC', 'Asia/Tokyo', 'Europe/Copenhagen'].map(isTimeZone)).toEqual([true, true, true]);
    expect(['Mars/Olympus', ''].map(isTimeZone)).toEqual([false, false]);
  });
});
