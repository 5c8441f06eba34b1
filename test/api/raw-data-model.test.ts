import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

interface ModelCustomer {
  name: string | null;
  email: string | null;
  status: 'active' | 'cancelled';
  custom_variables: Record<string, string>;
}

interface ModelPlan {
  name: string;
  billing_freq: string;
}

type Op =
  | {
      kind: 'post-customer';
      id: string;
      fields: Partial<Omit<ModelCustomer, 'custom_variables'>>;
      vars: Record<string, string | null>;
    }
  | {
      kind: 'put-customer';
      id: string;
      fields: Partial<Omit<ModelCustomer, 'custom_variables'>>;
      vars: Record<string, string | null>;
    }
  | { kind: 'delete-customer'; id: string }
  | { kind: 'post-plan'; id: string; plan: ModelPlan }
  | { kind: 'put-plan'; id: string; name: string }
  | { kind: 'delete-plan'; id: string };

const id = fc.constantFrom('a', 'b', 'c');
const vars = fc.dictionary(
  fc.constantFrom('industry', 'size', 'channel'),
  fc.option(fc.constantFrom('x', 'y'), { nil: null }),
);
const fields = fc.record(
  {
    name: fc.constantFrom('Ann', 'Bob'),
    email: fc.option(fc.constantFrom('a@example.com', 'b@example.com'), { nil: null }),
    status: fc.constantFrom('active' as const, 'cancelled' as const),
  },
  { requiredKeys: [] },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('post-customer' as const), id, fields, vars }),
  fc.record({ kind: fc.constant('put-customer' as const), id, fields, vars }),
  fc.record({ kind: fc.constant('delete-customer' as const), id }),
  fc.record({
    kind: fc.constant('post-plan' as const),
    id,
    plan: fc.record({ name: fc.constantFrom('Pro', 'Max'), billing_freq: fc.constantFrom('month', 'year') }),
  }),
  fc.record({ kind: fc.constant('put-plan' as const), id, name: fc.constantFrom('Renamed', 'Again') }),
  fc.record({ kind: fc.constant('delete-plan' as const), id }),
);

function mergeVars(
  current: Record<string, string>,
  given: Record<string, string | null>,
): Record<string, string> {
  const merged: Record<string, string | null> = { ...current, ...given };
  return Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}

/** What the store must hold after the operations, as the simplest possible code states it. */
function applyToModel(customers: Map<string, ModelCustomer>, plans: Map<string, ModelPlan>, o: Op): void {
  switch (o.kind) {
    case 'post-customer':
    case 'put-customer': {
      const current = customers.get(o.id);
      if (!current && o.kind === 'put-customer') return;
      const base = current ?? { name: null, email: null, status: 'active' as const, custom_variables: {} };
      const next = { ...base, ...o.fields, custom_variables: mergeVars(base.custom_variables, o.vars) };
      if (next.name === null && next.email === null) return;
      customers.set(o.id, next);
      return;
    }
    case 'delete-customer':
      customers.delete(o.id);
      return;
    case 'post-plan':
      plans.set(o.id, o.plan);
      return;
    case 'put-plan': {
      const current = plans.get(o.id);
      if (current) plans.set(o.id, { ...current, name: o.name });
      return;
    }
    case 'delete-plan':
      plans.delete(o.id);
  }
}

describe.each(STORE_KINDS)('raw data against an in-memory model on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('any interleaving of creates, updates and deletes leaves the store equal to the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const { adminKey: key } = await t.newAccount();
        const customers = new Map<string, ModelCustomer>();
        const plans = new Map<string, ModelPlan>();
        for (const o of ops) {
          const { method, url, payload } = request(o);
          await t.call(key, { method, url, ...(payload ? { payload } : {}) });
          applyToModel(customers, plans, o);
        }
        const listed = (await t.call(key, { method: 'GET', url: '/data/customers' })).json().result.list;
        expect(listed.map((c: { id: string }) => c.id)).toEqual([...customers.keys()].sort());
        for (const [customerId, expected] of customers) {
          const stored = (await t.call(key, { method: 'GET', url: `/data/customers/${customerId}` })).json();
          expect(stored).toMatchObject({ ...expected, created_date: TEST_NOW });
        }
        const storedPlans = (await t.call(key, { method: 'GET', url: '/data/plans' })).json().result.list;
        expect(storedPlans).toEqual(
          [...plans.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([planId, plan]) => ({
              id: planId,
              ...plan,
              billing_freq_count: 1,
              pricing_model: 'licensed',
              product_name: null,
              currency: 'usd',
              external_id: planId,
              data_source: expect.stringMatching(/^[0-9a-f-]{36}$/),
            })),
        );
      }),
      { numRuns: 25 },
    );
  });
});

function request(o: Op): { method: 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object } {
  switch (o.kind) {
    case 'post-customer':
      return {
        method: 'POST',
        url: '/data/customers',
        payload: { id: o.id, ...o.fields, custom_variables: o.vars },
      };
    case 'put-customer':
      return {
        method: 'PUT',
        url: `/data/customers/${o.id}`,
        payload: { ...o.fields, custom_variables: o.vars },
      };
    case 'delete-customer':
      return { method: 'DELETE', url: `/data/customers/${o.id}` };
    case 'post-plan':
      return { method: 'POST', url: '/data/plans', payload: { id: o.id, ...o.plan, currency: 'usd' } };
    case 'put-plan':
      return { method: 'PUT', url: '/data/plans', payload: { id: o.id, name: o.name } };
    case 'delete-plan':
      return { method: 'DELETE', url: `/data/plans/${o.id}` };
  }
}
