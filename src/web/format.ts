/** Cents of `currency` as money, whole units: the dashboard shows amounts, not accounting. */
export function money(cents: number | null | undefined, currency: string): string {
  if (cents === null || cents === undefined) return '–';
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    maximumFractionDigits: 0,
  }).format(cents / 100);
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : new Intl.NumberFormat('en-US').format(value);
}

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${value.toFixed(1)}%`;
}

/** Relative change from `before` to `now`, in percent; null when there is nothing to compare with. */
export function relativeChange(
  now: number | null | undefined,
  before: number | null | undefined,
): number | null {
  if (now === null || now === undefined || before === null || before === undefined || before === 0)
    return null;
  return ((now - before) / Math.abs(before)) * 100;
}

export function signed(value: number, unit: string): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)}${unit}`;
}

export function dateTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : 'never';
}
