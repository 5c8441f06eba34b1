import type { CustomerView } from '../../src/engine/account-snapshot.js';

/** A customer as the snapshot holds it, with everything empty unless given. */
export function customerView(id: string, extra: Partial<CustomerView> = {}): CustomerView {
  return {
    id,
    dataSourceId: 'ds1',
    name: null,
    email: null,
    createdDate: '2026-01-01T00:00:00.000Z',
    trialStarted: null,
    paidStarted: null,
    cancelDate: null,
    country: null,
    state: null,
    status: 'active',
    cancelReason: null,
    customVariables: {},
    currency: 'usd',
    firstPaidDay: null,
    plans: [],
    billingFreqs: [],
    primaryPlan: null,
    primaryBillingFreq: null,
    paymentMethods: [],
    latestPaymentMethod: null,
    pricingModels: [],
    primaryPricingModel: null,
    hasDiscount: false,
    quantities: [],
    movements: [],
    ...extra,
  };
}
