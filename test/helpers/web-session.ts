import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

export const PASSWORD = 'correct horse battery';

/** A browser's session, as the tests drive it: the cookie it holds and the CSRF token it read. */
export interface WebSession {
  cookie: string;
  csrf: string;
  /** `inject` with the session cookie, and the CSRF header unless `csrf: false`. */
  call(options: InjectOptions, csrf?: boolean): Promise<LightMyRequestResponse>;
}

/** The `name=value` of the session cookie a response sets. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = String(response.headers['set-cookie']);
  expect(header).toMatch(/^mrrlytics_session=/);
  return header.split(';')[0]!;
}

export async function sessionFrom(t: TestApp, response: LightMyRequestResponse): Promise<WebSession> {
  expect(response.statusCode, response.body).toBe(200);
  const cookie = sessionCookie(response);
  const me = await t.app.inject({ method: 'GET', url: '/web/session', headers: { cookie } });
  expect(me.statusCode, me.body).toBe(200);
  const csrf = me.json<{ csrf_token: string }>().csrf_token;
  return {
    cookie,
    csrf,
    call: (options, withCsrf = true) =>
      t.app.inject({
        ...options,
        headers: { ...options.headers, cookie, ...(withCsrf ? { 'x-csrf-token': csrf } : {}) },
      }),
  };
}

/** Creates the account's owner through its setup link and returns the owner's session. */
export async function setUpOwner(
  t: TestApp,
  accountId: string,
  email = 'owner@example.com',
): Promise<WebSession> {
  const issued = await t.services.webAuth.issueSetupTokens();
  const link = issued.find((item) => item.accountId === accountId);
  expect(link).toBeDefined();
  const response = await t.app.inject({
    method: 'POST',
    url: '/web/setup',
    payload: { token: link!.token, email, name: 'Olive Owner', password: PASSWORD },
  });
  return sessionFrom(t, response);
}

/** Invites a member as `inviter`, accepts the invitation and returns the new member's session and id. */
export async function inviteMember(
  t: TestApp,
  inviter: WebSession,
  email: string,
  role: 'admin' | 'readonly',
): Promise<{ id: string; session: WebSession }> {
  const invited = await inviter.call({ method: 'POST', url: '/web/team', payload: { email, role } });
  expect(invited.statusCode, invited.body).toBe(201);
  const { member, invite_token } = invited.json<{ member: { id: string }; invite_token: string }>();
  const accepted = await t.app.inject({
    method: 'POST',
    url: '/web/invitations/accept',
    payload: { token: invite_token, password: PASSWORD },
  });
  return { id: member.id, session: await sessionFrom(t, accepted) };
}
