import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

describe('createMailer', () => {
  it('without SMTP settings, says it is not configured and refuses to send', async () => {
    const mailer = createMailer(undefined);
    expect(mailer.configured).toBe(false);
    await expect(mailer.send({ to: ['a@example.com'], subject: 's', text: 't', html: 'h' })).rejects.toThrow(
      'SMTP is not configured (SMTP_URL or SMTP_HOST)',
    );
  });

  it('fails the send when the mail server cannot be reached, so the job retries', async () => {
    // Port 9 on the loopback (discard) has no SMTP server listening.
    const mailer = createMailer({ url: 'smtp://127.0.0.1:9', from: 'x@example.com' });
    expect(mailer.configured).toBe(true);
    await expect(
      mailer.send({ to: ['a@example.com'], subject: 's', text: 't', html: 'h' }),
    ).rejects.toThrow();
  });
});
