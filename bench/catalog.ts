/**
 * What the generated accounts are made of: markets, price lists and the words names are built
 * from. The shares are plausible for a B2B SaaS selling worldwide, not measured.
 */

export interface Market {
  country: string;
  currency: string;
  /** Sales tax or VAT on invoices, as a fraction of the amount. */
  taxRate: number;
  weight: number;
  states?: readonly string[];
}

export const MARKETS: readonly Market[] = [
  {
    country: 'US',
    currency: 'usd',
    taxRate: 0,
    weight: 34,
    states: ['ca', 'ny', 'tx', 'wa', 'ma', 'il', 'fl', 'co'],
  },
  { country: 'GB', currency: 'gbp', taxRate: 0.2, weight: 10 },
  { country: 'DE', currency: 'eur', taxRate: 0.19, weight: 9 },
  { country: 'FR', currency: 'eur', taxRate: 0.2, weight: 6 },
  { country: 'NL', currency: 'eur', taxRate: 0.21, weight: 4 },
  { country: 'ES', currency: 'eur', taxRate: 0.21, weight: 3 },
  { country: 'IT', currency: 'eur', taxRate: 0.22, weight: 3 },
  { country: 'IE', currency: 'eur', taxRate: 0.23, weight: 2 },
  { country: 'CA', currency: 'cad', taxRate: 0.05, weight: 6, states: ['on', 'qc', 'bc', 'ab'] },
  { country: 'AU', currency: 'aud', taxRate: 0.1, weight: 5 },
  { country: 'SE', currency: 'sek', taxRate: 0.25, weight: 3 },
  { country: 'CH', currency: 'chf', taxRate: 0.081, weight: 2 },
  { country: 'JP', currency: 'jpy', taxRate: 0.1, weight: 3 },
  { country: 'IN', currency: 'inr', taxRate: 0.18, weight: 3 },
  { country: 'BR', currency: 'brl', taxRate: 0, weight: 3 },
  { country: 'SG', currency: 'usd', taxRate: 0, weight: 2 },
  { country: 'ZA', currency: 'usd', taxRate: 0, weight: 1 },
  { country: 'AE', currency: 'usd', taxRate: 0, weight: 1 },
];

/** Minor units of each currency per US cent, roughly; JPY has no minor unit. */
export const PER_US_CENT: Readonly<Record<string, number>> = {
  usd: 1,
  eur: 0.92,
  gbp: 0.79,
  cad: 1.37,
  aud: 1.52,
  sek: 10.5,
  chf: 0.88,
  jpy: 1.5,
  inr: 83,
  brl: 5.4,
};

export const CURRENCIES = Object.keys(PER_US_CENT);

export interface Tier {
  id: string;
  name: string;
  /** Monthly list price in US cents, per seat. */
  monthlyUsCents: number;
  weight: number;
  /** Most seats a customer on this tier buys. */
  maxSeats: number;
}

/** Ordered from cheapest to dearest: an upgrade moves one step up. */
export const TIERS: readonly Tier[] = [
  { id: 'starter', name: 'Starter', monthlyUsCents: 1_900, weight: 40, maxSeats: 1 },
  { id: 'growth', name: 'Growth', monthlyUsCents: 4_900, weight: 33, maxSeats: 5 },
  { id: 'business', name: 'Business', monthlyUsCents: 12_900, weight: 20, maxSeats: 10 },
  { id: 'enterprise', name: 'Enterprise', monthlyUsCents: 39_900, weight: 7, maxSeats: 25 },
];

export type Frequency = 'month' | 'quarter' | 'year';

export const FREQUENCIES: readonly (readonly [Frequency, number])[] = [
  ['month', 68],
  ['quarter', 10],
  ['year', 22],
];

export const MONTHS_PER_PERIOD: Readonly<Record<Frequency, number>> = { month: 1, quarter: 3, year: 12 };

/** Longer commitments buy a lower monthly price. */
export const FREQUENCY_FACTOR: Readonly<Record<Frequency, number>> = { month: 1, quarter: 0.95, year: 0.83 };

/** An add-on billed on its own line next to the main plan. */
export const ADD_ON = { id: 'priority-support', name: 'Priority support', monthlyUsCents: 2_900 };

export const SETUP_FEE_US_CENTS = 49_900;

export const CUSTOM_VARIABLES: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  industry: [
    ['saas', 30],
    ['ecommerce', 20],
    ['fintech', 12],
    ['health', 10],
    ['education', 10],
    ['media', 8],
    ['agency', 10],
  ],
  channel: [
    ['organic', 35],
    ['paid', 25],
    ['referral', 15],
    ['partner', 10],
    ['outbound', 15],
  ],
  size: [
    ['1-10', 40],
    ['11-50', 30],
    ['51-200', 18],
    ['201-1000', 9],
    ['1000+', 3],
  ],
};

export const CANCEL_REASONS = [
  'too expensive',
  'missing features',
  'switched to a competitor',
  'project ended',
  'no longer needed',
];

export const PAYMENT_METHODS: readonly (readonly [string, number])[] = [
  ['card', 80],
  ['sepa_debit', 8],
  ['bank_transfer', 7],
  ['paypal', 5],
];

export const NAME_WORDS = {
  first: [
    'Blue',
    'North',
    'Bright',
    'Silver',
    'Quiet',
    'Rapid',
    'Clear',
    'Golden',
    'Open',
    'Iron',
    'Little',
    'Grand',
  ],
  second: [
    'Harbor',
    'Pine',
    'Falcon',
    'Ledger',
    'Orbit',
    'Maple',
    'Signal',
    'Canvas',
    'Summit',
    'Beacon',
    'River',
    'Forge',
  ],
  suffix: ['Labs', 'Inc', 'GmbH', 'Ltd', 'Studio', 'Systems', 'Co', 'Group', 'Works', 'Software'],
};
