import { describe, expect, it } from 'vitest';
import { customerEvents, invoiceEvents, planEvents, sampleData } from './webhook-events.js';

const customer = {
  id: 'c1',
  data_source: 'ds1',
  name: 'Ann',
  email: 'ann@example.com',
  custom_variables: { tier: 'gold', region: 'eu' },
};
const plan = { id: 'pro', data_source: 'ds1', name: 'Pro', billing_freq: 'month', currency: 'usd' };
const invoice = {
  id: 'i1',
  data_source: 'ds1',
  customer_id: 'c1',
  status: 'paid',
  amount: 4900,
  currency: 'usd',
  date: '2026-11-20',
};

describe('record events', () => {
  it('tells a new customer as created, a changed one as updated, and an unchanged one not at all', () => {
    expect(customerEvents({ before: undefined, after: customer }, 7)).toEqual([
      {
        type: 'customer.created',
        key: 'customer.created:ds1:c1:v7',
        data: { customer: { id: 'c1', name: 'Ann', email: 'ann@example.com' } },
      },
    ]);
    expect(customerEvents({ before: customer, after: { ...customer, name: 'Ann B' } }, 8)).toEqual([
      {
        type: 'customer.updated',
        key: 'customer.updated:ds1:c1:v8',
        data: { customer: { id: 'c1', name: 'Ann B', email: 'ann@example.com' } },
      },
    ]);
    // The same fields in another order are no change.
    const reordered = { ...customer, custom_variables: { region: 'eu', tier: 'gold' } };
    expect(customerEvents({ before: customer, after: reordered }, 9)).toEqual([]);
  });

  it('tells a plan once, when it is new', () => {
    expect(planEvents({ before: undefined, after: plan }, 3)).toEqual([
      {
        type: 'plan.created',
        key: 'plan.created:ds1:pro:v3',
        data: { plan: { id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' } },
      },
    ]);
    expect(planEvents({ before: plan, after: { ...plan, name: 'Pro 2' } }, 4)).toEqual([]);
  });

  it('tells an invoice as paid when it becomes paid, posted paid included, and not again', () => {
    const paid = {
      type: 'invoice.paid',
      key: 'invoice.paid:ds1:i1:v5',
      data: { invoice: { id: 'i1', customer_id: 'c1', total: 4900, currency: 'usd', date: '2026-11-20' } },
    };
    expect(invoiceEvents({ before: undefined, after: invoice }, 5)).toEqual([paid]);
    expect(invoiceEvents({ before: { ...invoice, status: 'open' }, after: invoice }, 5)).toEqual([paid]);
    expect(invoiceEvents({ before: invoice, after: { ...invoice, amount: 5000 } }, 6)).toEqual([]);
    expect(invoiceEvents({ before: undefined, after: { ...invoice, status: 'open' } }, 6)).toEqual([]);
  });

  it('samples the same shapes', () => {
    expect(sampleData('invoice.paid')).toEqual({
      invoice: { id: 'in_123', customer_id: 'cus_123', total: 9900, currency: 'usd', date: '2026-01-15' },
    });
    expect(sampleData('customer.updated')).toEqual({
      customer: { id: 'cus_123', name: 'Example Ltd', email: 'billing@example.com' },
    });
    expect(sampleData('plan.created')).toEqual({
      plan: { id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' },
    });
  });
});
