import type { MovementKind, MovementSubtype } from './types.js';

/**
 * The words of the data model that every layer shares: the API validates with them, the store
 * types its rows with them and the engine computes with them. They live at the bottom layer so
 * that no layer reaches sideways or up for them.
 */

/** The billing systems a source can be connected to (Stripe, Chargebee, Recurly). */
export const PROCESSOR_TYPES = ['processor-a', 'processor-b', 'processor-c'] as const;

export const DATA_SOURCE_TYPES = [...PROCESSOR_TYPES, 'api', 'csv', 'spreadsheet'] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];

/** The raw record kinds a file can be uploaded as. */
export const UPLOAD_KINDS = ['customers', 'plans', 'invoices', 'subscriptions'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const BILLING_FREQUENCIES = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number];
export const PRICING_MODELS = ['licensed', 'metered'] as const;

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'ended'] as const;

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export const LINE_TYPES = ['subscription', 'one_time'] as const;
export const TRANSACTION_TYPES = ['payment', 'refund'] as const;
export const TRANSACTION_RESULTS = ['successful', 'failed'] as const;

export const MOVEMENT_KINDS: readonly MovementKind[] = [
  'new',
  'expansion',
  'contraction',
  'churn',
  'reactivation',
];

/** Why an expansion or a contraction happened, in the order that decides when several apply. */
export const CHANGE_SUBTYPES = [
  'plan_change',
  'add_on',
  'quantity_change',
  'discount_change',
  'price_change',
  'fx',
  'other',
] as const satisfies readonly MovementSubtype[];

export const CHURN_SUBTYPES = ['voluntary', 'delinquent'] as const satisfies readonly MovementSubtype[];

/** The subtypes each movement kind can have. */
export const SUBTYPES_OF_KIND: Readonly<Record<MovementKind, readonly MovementSubtype[]>> = {
  new: ['new'],
  expansion: CHANGE_SUBTYPES,
  contraction: CHANGE_SUBTYPES,
  churn: CHURN_SUBTYPES,
  reactivation: ['reactivation'],
};

/** Every subtype once: the index a snapshot stores, and the values the store accepts. */
export const MOVEMENT_SUBTYPES: readonly MovementSubtype[] = [
  'new',
  'reactivation',
  ...CHANGE_SUBTYPES,
  ...CHURN_SUBTYPES,
];
