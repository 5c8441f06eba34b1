import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AccessLevel } from '../store/api-keys-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import type { TeamMemberRow, TeamRole } from '../store/team-repo.js';
import { hashSecret, newToken } from './api-key-secrets.js';
import type { Clock } from './clock.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { checkPasswordRules, hashPassword, spendDecoyVerification, verifyPassword } from './passwords.js';

const HOUR_MS = 3_600_000;
/** A session ends this long after sign-in, used or not (docs/operations.md). */
export const SESSION_LIFETIME_MS = 7 * 24 * HOUR_MS;
const SETUP_TOKEN_LIFETIME_MS = 24 * HOUR_MS;
export const INVITE_LIFETIME_MS = 7 * 24 * HOUR_MS;

/** Who is behind a session cookie, as every request sees it. */
export interface SessionContext {
  accountId: string;
  memberId: string;
  sessionId: string;
  role: TeamRole;
  accessLevel: AccessLevel;
}

export interface NewSession {
  /** The cookie value: shown to the browser once, stored only as a hash. */
  token: string;
  expiresAt: Date;
}

/** The same rule as API keys: readonly members see, owners and admins change. */
export function accessLevelOf(role: TeamRole): AccessLevel {
  return role === 'readonly' ? 'viewer' : 'admin';
}

/**
 * The CSRF token of a session, derived from its secret: a page that can read the session's own
 * JSON can send it, a page on another site cannot compute it, and nothing more is stored.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

export function checkEmail(email: string): void {
  if (!z.email().safeParse(email).success)
    throw new InvalidInputError(`email "${email}" is not a valid email address`);
}

export function createWebAuthService(store: Store, clock: Clock) {
  const later = (ms: number) => new Date(clock.now().getTime() + ms);

  async function openSession(repos: Repos, accountId: string, memberId: string): Promise<NewSession> {
    const { token, tokenHash } = newToken();
    const expiresAt = later(SESSION_LIFETIME_MS);
    await repos.webSessions.insert({ accountId, sessionId: randomUUID(), memberId, tokenHash, expiresAt });
    await repos.team.recordLogin(accountId, memberId, clock.now());
    return { token, expiresAt };
  }

  return {
    /** Undefined for a wrong email or password; which of the two is not told, not even by timing. */
    async signIn(email: string, password: string): Promise<NewSession | undefined> {
      const candidates = await store.team.signInCandidates(email);
      if (candidates.length === 0) {
        await spendDecoyVerification(password);
        return undefined;
      }
      // One address may belong to members of several accounts; it signs in to the oldest whose
      // password it matches (docs/decisions.md).
      for (const candidate of candidates) {
        if (await verifyPassword(password, candidate.password_hash)) {
          await store.webSessions.deleteExpired(clock.now());
          return openSession(store, candidate.account_id, candidate.member_id);
        }
      }
      return undefined;
    },

    async authenticate(token: string): Promise<SessionContext | undefined> {
      const row = await store.webSessions.findLive(hashSecret(token), clock.now());
      if (!row) return undefined;
      return {
        accountId: row.account_id,
        memberId: row.member_id,
        sessionId: row.session_id,
        role: row.role,
        accessLevel: accessLevelOf(row.role),
      };
    },

    async signOut(session: SessionContext): Promise<void> {
      await store.webSessions.delete(session.accountId, session.sessionId);
    },

    async member(session: SessionContext): Promise<TeamMemberRow> {
      const row = await store.team.get(session.accountId, session.memberId);
      if (!row) throw new NotFoundError(`Team member ${session.memberId} not found`);
      return row;
    },

    /**
     * False, changing nothing, when `current` is not the password. Other sessions of the member
     * end: whoever learnt the old password is signed out.
     */
    async changePassword(session: SessionContext, current: string, next: string): Promise<boolean> {
      checkPasswordRules(next);
      const credentials = await store.team.credentials(session.accountId, session.memberId);
      if (!credentials || !(await verifyPassword(current, credentials.password_hash))) return false;
      const passwordHash = await hashPassword(next);
      await store.transaction(async (tx) => {
        await tx.team.setPassword(session.accountId, session.memberId, passwordHash);
        await tx.webSessions.deleteOfMember(session.accountId, session.memberId, session.sessionId);
      });
      return true;
    },

    /**
     * A fresh one-time setup token for every account that has no owner able to sign in; each
     * replaces the account's previous one. Printed at start, it is the only way to the first owner.
     */
    async issueSetupTokens(): Promise<{ accountId: string; token: string }[]> {
      const issued = [];
      for (const accountId of await store.team.accountsWithoutOwner()) {
        const { token, tokenHash } = newToken();
        await store.webSessions.replaceSetupToken(accountId, tokenHash, later(SETUP_TOKEN_LIFETIME_MS));
        issued.push({ accountId, token });
      }
      return issued;
    },

    setupTokenIsLive(token: string): Promise<boolean> {
      return store.webSessions.setupTokenIsLive(hashSecret(token), clock.now());
    },

    /** Creates the owner with the setup token, which is used up, and signs them in. */
    async completeSetup(
      token: string,
      owner: { email: string; name: string; password: string },
    ): Promise<NewSession> {
      checkEmail(owner.email);
      checkPasswordRules(owner.password);
      const passwordHash = await hashPassword(owner.password);
      return store.transaction(async (tx) => {
        const accountId = await tx.webSessions.takeSetupToken(hashSecret(token), clock.now());
        if (!accountId) throw new NotFoundError('This setup link is not valid (used, replaced or expired)');
        const memberId = randomUUID();
        const row = await tx.team.insert({
          accountId,
          memberId,
          email: owner.email,
          name: owner.name,
          role: 'owner',
          status: 'active',
          passwordHash,
        });
        if (!row) throw new ConflictError(`A team member with email ${owner.email} already exists`);
        return openSession(tx, accountId, memberId);
      });
    },

    async invitation(token: string): Promise<{ email: string; name: string }> {
      const invite = await store.team.inviteIsLive(hashSecret(token), clock.now());
      if (!invite) throw new NotFoundError('This invitation is not valid (used, withdrawn or expired)');
      return invite;
    },

    /** The invited member sets a password, becomes active and is signed in; the link is used up. */
    async acceptInvitation(
      token: string,
      accepted: { name?: string; password: string },
    ): Promise<NewSession> {
      checkPasswordRules(accepted.password);
      const passwordHash = await hashPassword(accepted.password);
      return store.transaction(async (tx) => {
        const row = await tx.team.acceptInvite(hashSecret(token), clock.now(), {
          passwordHash,
          name: accepted.name,
        });
        if (!row) throw new NotFoundError('This invitation is not valid (used, withdrawn or expired)');
        return openSession(tx, row.account_id, row.member_id);
      });
    },
  };
}

export type WebAuthService = ReturnType<typeof createWebAuthService>;
