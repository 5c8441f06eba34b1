import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readRecurlyNotification, recurlySignature, verifyRecurlySignature } from './webhooks.js';

const SECRET = 'whsec-recurly';
const BODY = JSON.stringify({
  id: 'r3oplsj3zo7a',
  object_type: 'subscription',
  site_id: 'r23khg9b5kyb',
  event_type: 'renewed',
  event_time: '2026-11-20T10:00:00Z',
  account_code: 'cus_1',
});

describe('Recurly webhook signatures', () => {
  it('is the hex HMAC-SHA256 of "timestamp.body" with the secret key', () => {
    const expected = createHmac('sha256', SECRET).update(`1700000000000.${BODY}`).digest('hex');
    expect(recurlySignature(BODY, SECRET, 1_700_000_000_000)).toBe(expected);
  });

  it('accepts any of the signatures within the tolerance and refuses the rest', () => {
    const now = 1_700_000_000_000;
    const good = recurlySignature(BODY, SECRET, now);
    const old = recurlySignature(BODY, 'the-previous-key', now);
    expect(() => verifyRecurlySignature(BODY, `${now},${old},${good}`, SECRET, now)).not.toThrow();
    expect(() => verifyRecurlySignature(BODY, `${now},${old}`, SECRET, now)).toThrow(/No recurly-signature/);
    expect(() => verifyRecurlySignature(`${BODY} `, `${now},${good}`, SECRET, now)).toThrow();
    // Five minutes either way, no more.
    expect(() => verifyRecurlySignature(BODY, `${now},${good}`, SECRET, now + 5 * 60_000)).not.toThrow();
    expect(() => verifyRecurlySignature(BODY, `${now},${good}`, SECRET, now + 5 * 60_000 + 1)).toThrow(
      /tolerance/,
    );
    expect(() => verifyRecurlySignature(BODY, `${now}`, SECRET, now)).toThrow(/malformed/);
    expect(() => verifyRecurlySignature(BODY, `soon,${good}`, SECRET, now)).toThrow(/malformed/);
    expect(() => verifyRecurlySignature(BODY, `${now},zz`, SECRET, now)).toThrow();
  });

  it('names the event by object, event type and time, and the customer by account code', () => {
    const now = Date.now();
    const header = `${now},${recurlySignature(BODY, SECRET, now)}`;
    expect(readRecurlyNotification(BODY, { 'recurly-signature': header }, SECRET)).toEqual({
      id: 'subscription:r3oplsj3zo7a:renewed:2026-11-20T10:00:00Z',
      customerId: 'cus_1',
    });
    expect(() => readRecurlyNotification(BODY, {}, SECRET)).toThrow(/missing/);
    const plan = JSON.stringify({ id: 'p1', object_type: 'plan', event_type: 'updated', event_time: 'x' });
    const planHeader = `${now},${recurlySignature(plan, SECRET, now)}`;
    expect(readRecurlyNotification(plan, { 'recurly-signature': planHeader }, SECRET).customerId).toBeNull();
    const bare = JSON.stringify({ account_code: 'cus_2' });
    const bareHeader = `${now},${recurlySignature(bare, SECRET, now)}`;
    expect(readRecurlyNotification(bare, { 'recurly-signature': bareHeader }, SECRET)).toEqual({
      id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      customerId: 'cus_2',
    });
  });
});
