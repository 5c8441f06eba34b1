import { dayNumber } from './days.js';

/** True for a time zone `Intl` knows by its IANA name (Europe/Copenhagen, UTC). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** What a wall clock in a time zone shows: the calendar day (as `dayNumber`) and the hour, 0 to 23. */
export interface WallClock {
  day: number;
  hour: number;
}

// Building a formatter costs far more than using one, and a sweep asks for the same few zones.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall clock of `zone` (an IANA name `isTimeZone` accepts) at `instant`, daylight saving included. */
export function wallClock(instant: Date, zone: string): WallClock {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    day: dayNumber(`${parts.year}-${parts.month}-${parts.day}`),
    hour: Number(parts.hour),
  };
}
