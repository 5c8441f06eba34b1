import type { Queryable } from './db.js';
import type { TeamRole } from './team-repo.js';

/** A live session with what every request needs to know about its member. */
export interface WebSessionRow {
  account_id: string;
  session_id: string;
  member_id: string;
  role: TeamRole;
  expires_at: string;
}

export function webSessionsRepo(db: Queryable) {
  return {
    async insert(session: {
      accountId: string;
      sessionId: string;
      memberId: string;
      tokenHash: string;
      expiresAt: Date;
    }): Promise<void> {
      await db.query(
        `insert into web_sessions (account_id, session_id, member_id, token_hash, expires_at)
         values ($1, $2, $3, $4, $5)`,
        [
          session.accountId,
          session.sessionId,
          session.memberId,
          session.tokenHash,
          session.expiresAt.toISOString(),
        ],
      );
    },

    /** Only a session that has not expired and whose member is still active counts. */
    async findLive(tokenHash: string, now: Date): Promise<WebSessionRow | undefined> {
      const [row] = await db.query<WebSessionRow>(
        `select s.account_id, s.session_id, s.member_id, m.role, s.expires_at
         from web_sessions s
         join team_members m on m.account_id = s.account_id and m.member_id = s.member_id
         where s.token_hash = $1 and s.expires_at > $2 and m.status = 'active'`,
        [tokenHash, now.toISOString()],
      );
      return row;
    },

    async delete(accountId: string, sessionId: string): Promise<void> {
      await db.query('delete from web_sessions where account_id = $1 and session_id = $2', [
        accountId,
        sessionId,
      ]);
    },

    /** Signs a member out everywhere, except the session given (the one changing the password). */
    async deleteOfMember(accountId: string, memberId: string, keepSessionId?: string): Promise<void> {
      await db.query(
        `delete from web_sessions where account_id = $1 and member_id = $2
         and ($3::uuid is null or session_id <> $3::uuid)`,
        [accountId, memberId, keepSessionId ?? null],
      );
    },

    async deleteExpired(now: Date): Promise<void> {
      await db.query('delete from web_sessions where expires_at <= $1', [now.toISOString()]);
    },

    /** One setup token per account: a new one replaces the last. */
    async replaceSetupToken(accountId: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await db.query(
        `insert into web_setup_tokens (account_id, token_hash, expires_at) values ($1, $2, $3)
         on conflict (account_id) do update set token_hash = excluded.token_hash, expires_at = excluded.expires_at`,
        [accountId, tokenHash, expiresAt.toISOString()],
      );
    },

    /** Removes the setup token and names its account, if it was valid: it can be used only once. */
    async takeSetupToken(tokenHash: string, now: Date): Promise<string | undefined> {
      const [row] = await db.query<{ account_id: string }>(
        'delete from web_setup_tokens where token_hash = $1 and expires_at > $2 returning account_id',
        [tokenHash, now.toISOString()],
      );
      return row?.account_id;
    },

    async setupTokenIsLive(tokenHash: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        'select 1 from web_setup_tokens where token_hash = $1 and expires_at > $2',
        [tokenHash, now.toISOString()],
      );
      return rows.length > 0;
    },

    async deleteSetupToken(accountId: string): Promise<void> {
      await db.query('delete from web_setup_tokens where account_id = $1', [accountId]);
    },
  };
}
