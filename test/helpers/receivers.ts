import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedPost {
  path: string;
  body: Record<string, unknown>;
}

/** A local HTTP server that records every JSON POST and answers `status` (200 unless changed), 500 on `failing` paths. */
export async function httpReceiver() {
  const posts: ReceivedPost[] = [];
  const state = { status: 200, failing: new Set<string>() };
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      posts.push({ path: request.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      const status = state.failing.has(request.url ?? '') ? 500 : state.status;
      response.writeHead(status).end(status === 200 ? 'ok' : 'failed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    posts,
    state,
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** The body of a MIME part, decoded from its transfer encoding. */
function decodePart(part: string): string {
  const split = part.indexOf('\r\n\r\n');
  const headers = part.slice(0, split).toLowerCase();
  const body = part.slice(split + 4);
  if (headers.includes('content-transfer-encoding: base64'))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (headers.includes('content-transfer-encoding: quoted-printable')) {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The plain-text and HTML parts of a multipart/alternative message as nodemailer writes it. */
function parseMail(raw: string, to: string[]): ReceivedMail {
  const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
  const boundary = /boundary="?([^"\r\n;]+)"?/.exec(raw)?.[1] ?? '';
  const parts = raw.split(`--${boundary}`);
  const partOf = (type: string) => {
    const part = parts.find((candidate) => candidate.toLowerCase().includes(`content-type: ${type}`));
    return part ? decodePart(part.replace(/^\r\n/, '')).replace(/\r\n$/, '') : '';
  };
  return { to, subject, text: partOf('text/plain').replace(/\r\n/g, '\n'), html: partOf('text/html') };
}

/** A local SMTP server (no TLS, no authentication) that keeps every message it is given. */
export async function smtpInbox() {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        messages.push(
          parseMail(
            raw,
            session.envelope.rcptTo.map((address) => address.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    messages,
    smtp: { url: `smtp://127.0.0.1:${port}`, from: 'mrrlytics <digest@example.test>' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
