import type { Queryable } from './db.js';

/** What an OAuth `state` was issued for, once taken. */
export interface OAuthStateRow {
  account_id: string;
  data_source_id: string;
  session_id: string;
}

export function oauthStatesRepo(db: Queryable) {
  return {
    async insert(state: {
      stateHash: string;
      accountId: string;
      dataSourceId: string;
      sessionId: string;
      expiresAt: Date;
    }): Promise<void> {
      await db.query(
        `insert into oauth_states (state_hash, account_id, data_source_id, session_id, expires_at)
         values ($1, $2, $3, $4, $5)`,
        [
          state.stateHash,
          state.accountId,
          state.dataSourceId,
          state.sessionId,
          state.expiresAt.toISOString(),
        ],
      );
    },

    /**
     * Removes the state and says what it was issued for: it can be taken once. Only a state that
     * has not expired, whose session is still signed in and whose member may still administer
     * the account counts; any other is removed all the same.
     */
    async take(stateHash: string, now: Date): Promise<OAuthStateRow | undefined> {
      const [taken] = await db.query<OAuthStateRow & { expires_at: string | Date }>(
        `delete from oauth_states where state_hash = $1
         returning account_id, data_source_id, session_id, expires_at`,
        [stateHash],
      );
      if (!taken || new Date(taken.expires_at) <= now) return undefined;
      const [live] = await db.query<{ session_id: string }>(
        `select s.session_id from web_sessions s
         join team_members m on m.account_id = s.account_id and m.member_id = s.member_id
         where s.account_id = $1 and s.session_id = $2 and s.expires_at > $3 and m.status = 'active'
           and m.role in ('owner', 'admin')`,
        [taken.account_id, taken.session_id, now.toISOString()],
      );
      if (!live) return undefined;
      return {
        account_id: taken.account_id,
        data_source_id: taken.data_source_id,
        session_id: taken.session_id,
      };
    },

    async deleteExpired(now: Date): Promise<void> {
      await db.query('delete from oauth_states where expires_at <= $1', [now.toISOString()]);
    },
  };
}
