import { api, ApiError, useCsrfToken } from './api.js';

export interface Session {
  member: { id: string; email: string; name: string; role: 'owner' | 'admin' | 'readonly' };
  account: { id: string; name: string; base_currency: string };
  access_level: 'admin' | 'viewer';
  csrf_token: string;
  /** The billing systems this server can connect by OAuth. */
  oauth: readonly string[];
}

/** The signed-in member, or undefined when nobody is signed in. */
export async function loadSession(): Promise<Session | undefined> {
  try {
    const session = await api.get<Session>('/web/session');
    useCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return undefined;
    throw error;
  }
}

export async function signOut(): Promise<void> {
  await api.post('/web/sign-out');
  useCsrfToken(undefined);
}
