import nodemailer from 'nodemailer';

/** Where mail goes out: an SMTP URL (smtp:// or smtps://, credentials in it) and the sender address. */
export interface SmtpSettings {
  url: string;
  from: string;
}

export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** False without SMTP settings: nothing is sent, and the callers skip email. */
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}

/** nodemailer over SMTP; every message carries an HTML body and its plain-text twin. */
export function createMailer(settings: SmtpSettings | undefined): Mailer {
  if (!settings) {
    return {
      configured: false,
      async send() {
        throw new Error('SMTP is not configured (SMTP_URL or SMTP_HOST)');
      },
    };
  }
  const transport = nodemailer.createTransport(settings.url);
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({
        from: settings.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
  };
}
