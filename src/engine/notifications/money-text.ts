/** Signed cents of `currency` as people read them: `$1,234.50`, `-€80.00`. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

/** A change with its sign always shown: `+$10.00`, `-$80.00`. */
export function formatChange(cents: number, currency: string): string {
  return cents > 0 ? `+${formatMoney(cents, currency)}` : formatMoney(cents, currency);
}
