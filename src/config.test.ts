import { describe, expect, it } from 'vitest';
import { loadConfig, smtpSettings } from './config.js';

const DEFAULT_FROM = 'mrrlytics <notifications@localhost>';

describe('smtpSettings', () => {
  it('is unset without SMTP_URL or SMTP_HOST: no email is sent', () => {
    expect(smtpSettings({})).toBeUndefined();
    expect(loadConfig({}).smtp).toBeUndefined();
  });

  it('takes SMTP_URL as given, with the sender from SMTP_FROM', () => {
    expect(
      smtpSettings({ SMTP_URL: 'smtps://u:p@mail.example.com', SMTP_FROM: 'Revenue <r@example.com>' }),
    ).toEqual({
      url: 'smtps://u:p@mail.example.com',
      from: 'Revenue <r@example.com>',
    });
  });

  it('builds the URL from SMTP_HOST, SMTP_PORT (587 by default; 465 is TLS), SMTP_USER and SMTP_PASS', () => {
    expect(smtpSettings({ SMTP_HOST: 'mail.example.com' })).toEqual({
      url: 'smtp://mail.example.com:587',
      from: DEFAULT_FROM,
    });
    expect(
      smtpSettings({
        SMTP_HOST: 'mail.example.com',
        SMTP_PORT: '465',
        SMTP_USER: 'me@x',
        SMTP_PASS: 'p@ss word',
      }),
    ).toEqual({ url: 'smtps://me%40x:p%40ss%20word@mail.example.com:465', from: DEFAULT_FROM });
  });

  it('refuses an SMTP_URL of another scheme and a port that is not a number', () => {
    expect(() => smtpSettings({ SMTP_URL: 'http://mail.example.com' })).toThrow(
      'SMTP_URL must start with smtp:// or smtps://',
    );
    expect(() => smtpSettings({ SMTP_HOST: 'mail.example.com', SMTP_PORT: 'x' })).toThrow(
      'SMTP_PORT must be an integer >= 1, got "x"',
    );
  });
});

describe('OUTBOUND_ALLOW_PRIVATE', () => {
  it('is off unless set to true, and refuses anything but true or false', () => {
    expect(loadConfig({}).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'false' }).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).outboundAllowPrivate).toBe(true);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'yes' })).toThrow(
      'OUTBOUND_ALLOW_PRIVATE must be true or false, got "yes"',
    );
  });
});

describe('WORKERS', () => {
  const postgres = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/mrrlytics' };

  it('is 1 by default and takes any integer from 1 on PostgreSQL', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ ...postgres, WORKERS: '4' }).workers).toBe(4);
    expect(() => loadConfig({ ...postgres, WORKERS: '0' })).toThrow(
      'WORKERS must be an integer >= 1, got "0"',
    );
  });

  it('refuses more than one on the embedded store, naming the setting', () => {
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      'WORKERS=2 needs PostgreSQL (DATABASE_URL): the embedded store can be opened by one process only',
    );
  });
});
