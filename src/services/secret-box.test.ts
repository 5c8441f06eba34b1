import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSecretsKey, secretBox } from './secret-box.js';

describe('secretBox', () => {
  const box = secretBox(randomBytes(32));

  it('opens what it sealed, with a fresh IV each time and no clear text', () => {
    const first = box.seal('rk_live_abc');
    const second = box.seal('rk_live_abc');
    expect(first).not.toBe(second);
    expect(first).not.toContain('rk_live');
    expect(box.open(first)).toBe('rk_live_abc');
  });

  it('refuses a secret sealed under another key or tampered with', () => {
    const sealed = box.seal('rk_live_abc');
    const message =
      'A stored billing-system key cannot be opened with this SECRETS_KEY: connect the data source again';
    expect(() => secretBox(randomBytes(32)).open(sealed)).toThrow(message);
    const [iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64');
    flipped[0]! ^= 1;
    expect(() => box.open([iv, tag, flipped.toString('base64')].join('.'))).toThrow(message);
  });

  it('refuses to seal or open without a key, naming the variable', () => {
    expect(() => secretBox(undefined).seal('x')).toThrow(/^SECRETS_KEY is not set/);
    expect(() => secretBox(undefined).open('a.b.c')).toThrow(/^SECRETS_KEY is not set/);
  });
});

describe('parseSecretsKey', () => {
  it('takes 32 bytes as hex or base64 and nothing else', () => {
    const bytes = randomBytes(32);
    expect(parseSecretsKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64'))).toEqual(bytes);
    expect(() => parseSecretsKey('short')).toThrow(
      'SECRETS_KEY must be 32 bytes, as 64 hex characters or base64',
    );
  });
});
