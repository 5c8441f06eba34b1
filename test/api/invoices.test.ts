import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const invoice = {
  id: 'in1',
  customer_id: 'c1',
  date: '2025-01-15',
  currency: 'USD',
  number: 'INV-1',
  lines: [
    {
      plan_id: 'pro',
      amount: 9000,
      discount: 1000,
      tax: 1800,
      period_start: '2025-01-15',
      period_end: '2025-02-15',
    },
    { id: 'setup', type: 'one_time', amount: 500, description: 'Setup fee' },
  ],
  transactions: [
    { id: 't1', date: '2025-01-15T09:00:00Z', type: 'payment', result: 'failed', amount: 11300 },
    {
      id: 't2',
      date: '2025-01-16',
      type: 'payment',
      result: 'successful',
      amount: 11300,
      payment_method: 'card',
    },
  ],
};

describe.each(STORE_KINDS)('/data/invoices and /data/subscriptions on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let source: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/customers',
      payload: [
        { id: 'c1', name: 'One' },
        { id: 'c2', name: 'Two' },
      ],
    });
    await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/plans',
      payload: [
        { id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' },
        { id: 'max', name: 'Max', billing_freq: 'year', currency: 'usd' },
      ],
    });
    source = (await t.call(account.adminKey, { method: 'GET', url: '/data/data-sources' })).json().result[0]
      .id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.call(account.adminKey, {
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const stored = () => ({
    id: 'in1',
    data_source: source,
    customer_id: 'c1',
    date: '2025-01-15',
    due_date: null,
    currency: 'usd',
    status: 'paid',
    number: 'INV-1',
    description: null,
    payment_date: null,
    amount: 11300,
    lines: [
      {
        id: 'line_1',
        type: 'subscription',
        subscription_id: null,
        plan_id: 'pro',
        description: null,
        amount: 9000,
        quantity: 1,
        period_start: '2025-01-15',
        period_end: '2025-02-15',
        discount: 1000,
        tax: 1800,
        prorated: false,
      },
      {
        id: 'setup',
        type: 'one_time',
        subscription_id: null,
        plan_id: null,
        description: 'Setup fee',
        amount: 500,
        quantity: 1,
        period_start: null,
        period_end: null,
        discount: 0,
        tax: 0,
        prorated: false,
      },
    ],
    transactions: [
      {
        id: 't1',
        date: '2025-01-15T09:00:00.000Z',
        type: 'payment',
        result: 'failed',
        amount: 11300,
        payment_method: null,
      },
      {
        id: 't2',
        date: '2025-01-16T00:00:00.000Z',
        type: 'payment',
        result: 'successful',
        amount: 11300,
        payment_method: 'card',
      },
    ],
  });

  it('stores invoices with lines and transactions, and reports each item', async () => {
    const res = await call('POST', '/data/invoices', [
      invoice,
      { id: 'min', customer_id: 'c2', date: '2025-02-01', amount: 4900, currency: 'usd' },
      { id: 'orphan', customer_id: 'nobody', date: '2025-02-01', amount: 1, currency: 'usd' },
      {
        ...invoice,
        id: 'badplan',
        lines: [{ plan_id: 'gone', amount: 1, period_start: '2025-01-01', period_end: '2025-02-01' }],
      },
      { id: 'noamount', customer_id: 'c1', date: '2025-02-01', currency: 'usd' },
      {
        ...invoice,
        id: 'period',
        lines: [{ amount: 1, period_start: '2025-02-01', period_end: '2025-02-01' }],
      },
      { ...invoice, id: 'total', amount: 1 },
      { ...invoice, id: 'noperiod', lines: [{ amount: 1 }] },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: [
        { id: 'in1', import_status: 'inserted' },
        { id: 'min', import_status: 'inserted' },
        {
          id: 'orphan',
          import_status: 'error',
          import_error: `Unknown customer_id "nobody": no such customer in data source ${source}`,
        },
        {
          id: 'badplan',
          import_status: 'error',
          import_error: `Unknown plan_id "gone" (lines.0.plan_id): no such plan in data source ${source}`,
        },
        { id: 'noamount', import_status: 'error', import_error: 'Missing required fields: amount' },
        {
          id: 'period',
          import_status: 'error',
          import_error: 'Invalid field "lines.0.period_end": must be after period_start',
        },
        {
          id: 'total',
          import_status: 'error',
          import_error: 'Invalid field "amount": 1 does not equal the line amounts plus tax, 11300',
        },
        {
          id: 'noperiod',
          import_status: 'error',
          import_error: 'Invalid field "lines.0.period_start": is required on a subscription line',
        },
      ],
    });
    expect((await call('GET', '/data/invoices/in1')).json()).toEqual(stored());
    const list = await t.call(account.viewerKey, { method: 'GET', url: '/data/invoices?customer=c2' });
    expect(list.json()).toEqual({
      result: {
        count: 1,
        list: [
          {
            id: 'min',
            data_source: source,
            customer_id: 'c2',
            date: '2025-02-01',
            due_date: null,
            currency: 'usd',
            status: 'paid',
            number: null,
            description: null,
            payment_date: null,
            amount: 4900,
            lines: [],
            transactions: [],
          },
        ],
      },
    });
  });

  it('is idempotent: re-sending the same body stores the same records', async () => {
    const again = await call('POST', '/data/invoices', invoice);
    expect(again.json()).toEqual({ result: [{ id: 'in1', import_status: 'inserted' }] });
    expect((await call('GET', '/data/invoices/in1')).json()).toEqual(stored());
    expect((await call('GET', `/data/invoices?source=${source}&limit=10`)).json().result.count).toBe(2);
  });

  it('replaces lines and transactions on update, keeping the other fields', async () => {
    const res = await call('PUT', '/data/invoices/in1', {
      status: 'open',
      lines: [
        { id: 'l', plan_id: 'max', amount: 120000, period_start: '2025-01-15', period_end: '2026-01-15' },
      ],
      transactions: [],
    });
    expect(res.json()).toEqual({ success: true, id: 'in1' });
    const { lines, transactions, ...rest } = stored();
    expect((await call('GET', '/data/invoices/in1')).json()).toEqual({
      ...rest,
      status: 'open',
      amount: 120000,
      lines: [
        {
          ...lines[0],
          id: 'l',
          plan_id: 'max',
          amount: 120000,
          period_end: '2026-01-15',
          discount: 0,
          tax: 0,
        },
      ],
      transactions: [],
    });
    const bad = await call('PUT', '/data/invoices/in1', { status: 'lost' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: 'Invalid field "status": must be one of draft, open, paid, void, uncollectible',
    });
    const unknownCustomer = await call('PUT', '/data/invoices/in1', { customer_id: 'zz' });
    expect(unknownCustomer.json()).toEqual({
      error: `Unknown customer_id "zz": no such customer in data source ${source}`,
    });
  });

  it('takes invoices as CSV, one row per line, grouped by invoice id', async () => {
    const csv = [
      'id,customer_id,date,currency,line_plan_id,line_amount,line_period_start,line_period_end,line_prorated,transaction_id,transaction_date,transaction_type,transaction_result,transaction_amount',
      'cv1,c2,2025-03-01,usd,pro,1000,2025-03-01,2025-04-01,false,tx1,2025-03-01,payment,successful,1500',
      'cv1,,,,max,500,2025-03-01,2026-03-01,true,,,,,',
      'cv2,c2,2025-03-05,eur,pro,700,2025-03-05,2025-04-05,,,,,,',
    ].join('\n');
    const res = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/invoices',
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.json()).toEqual({
      result: [
        { id: 'cv1', import_status: 'inserted' },
        { id: 'cv2', import_status: 'inserted' },
      ],
    });
    const cv1 = (await call('GET', '/data/invoices/cv1')).json();
    expect(cv1.amount).toBe(1500);
    expect(
      cv1.lines.map((line: { id: string; plan_id: string; prorated: boolean }) => [
        line.id,
        line.plan_id,
        line.prorated,
      ]),
    ).toEqual([
      ['line_1', 'pro', false],
      ['line_2', 'max', true],
    ]);
    expect(cv1.transactions).toEqual([
      {
        id: 'tx1',
        date: '2025-03-01T00:00:00.000Z',
        type: 'payment',
        result: 'successful',
        amount: 1500,
        payment_method: null,
      },
    ]);
    const conflict = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/invoices',
      headers: { 'content-type': 'text/csv' },
      payload: 'id,customer_id,date,currency,amount\nx,c1,2025-01-01,usd,5\nx,c1,2025-01-02,usd,5\n',
    });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json()).toEqual({ error: 'CSV row 3: invoice x has a second value for "date"' });
  });

  it('deletes invoices, and 404s for unknown ones', async () => {
    expect((await call('DELETE', '/data/invoices/cv2')).json()).toEqual({ success: true, id: 'cv2' });
    const gone = await call('GET', '/data/invoices/cv2');
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Invoice cv2 not found' });
  });

  it('stores subscriptions with scheduled changes, and updates and deletes them', async () => {
    const res = await call('POST', '/data/subscriptions', [
      {
        id: 's1',
        customer_id: 'c1',
        plan_id: 'pro',
        quantity: 3,
        started_at: '2025-01-15',
        cancel_requested_at: '2025-06-01T12:00:00Z',
        cancel_at: '2025-07-15',
        currency: 'USD',
        mrr: 27000,
        scheduled_changes: [{ date: '2025-03-15', plan_id: 'max', quantity: 1 }],
      },
      { id: 's2', customer_id: 'c1', started_at: '2025-01-15', status: 'paused' },
      {
        id: 's3',
        customer_id: 'c1',
        started_at: '2025-01-15',
        scheduled_changes: [{ date: '2025-03-01', plan_id: 'none' }],
      },
      { id: 's4', customer_id: 'c2' },
    ]);
    expect(res.json()).toEqual({
      result: [
        { id: 's1', import_status: 'inserted' },
        {
          id: 's2',
          import_status: 'error',
          import_error: 'Invalid field "status": must be one of active, trialing, past_due, canceled, ended',
        },
        {
          id: 's3',
          import_status: 'error',
          import_error: `Unknown plan_id "none" (scheduled_changes.0.plan_id): no such plan in data source ${source}`,
        },
        { id: 's4', import_status: 'error', import_error: 'Missing required fields: started_at' },
      ],
    });
    const s1 = {
      id: 's1',
      data_source: source,
      customer_id: 'c1',
      plan_id: 'pro',
      quantity: 3,
      status: 'active',
      started_at: '2025-01-15T00:00:00.000Z',
      cancel_requested_at: '2025-06-01T12:00:00.000Z',
      cancel_at: '2025-07-15T00:00:00.000Z',
      ended_at: null,
      mrr: 27000,
      currency: 'usd',
      scheduled_changes: [{ date: '2025-03-15', plan_id: 'max', quantity: 1 }],
    };
    expect((await call('GET', '/data/subscriptions/s1')).json()).toEqual(s1);
    expect(
      (await call('PUT', '/data/subscriptions/s1', { status: 'canceled', scheduled_changes: [] })).json(),
    ).toEqual({
      success: true,
      id: 's1',
    });
    expect((await call('GET', '/data/subscriptions?customer=c1')).json()).toEqual({
      result: { count: 1, list: [{ ...s1, status: 'canceled', scheduled_changes: [] }] },
    });
    expect((await call('DELETE', '/data/subscriptions/s1')).json()).toEqual({ success: true, id: 's1' });
    expect((await call('GET', '/data/subscriptions')).json()).toEqual({ result: { count: 0, list: [] } });
  });

  it('deleting a customer deletes its invoices and subscriptions', async () => {
    await call('POST', '/data/subscriptions', { id: 's9', customer_id: 'c2', started_at: '2025-01-01' });
    await call('DELETE', '/data/customers/c2');
    expect((await call('GET', '/data/invoices?customer=c2')).json().result.count).toBe(0);
    expect((await call('GET', '/data/subscriptions?customer=c2')).json().result.count).toBe(0);
  });
});
