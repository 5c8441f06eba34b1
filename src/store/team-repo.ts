import type { Queryable } from './db.js';

export type TeamRole = 'owner' | 'admin' | 'readonly';
export type TeamStatus = 'active' | 'pending' | 'disabled';

export interface TeamMemberRow {
  member_id: string;
  email: string;
  name: string;
  role: TeamRole;
  status: TeamStatus;
  last_login: string | null;
}

/** What signing in compares: never returned by the API. */
export interface MemberCredentials {
  account_id: string;
  member_id: string;
  password_hash: string;
}

const COLUMNS = 'member_id, email, name, role, status, last_login';

export interface MemberProfileRow {
  member_id: string;
  email: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  locale: string | null;
  time_zone: string | null;
}

export interface ProfileChange {
  first_name?: string;
  last_name?: string;
  locale?: string;
  time_zone?: string;
}

/** An account a person can act in, found by the email they sign in with. */
export interface MemberAccountRow {
  account_id: string;
  name: string;
  role: TeamRole;
}

const PROFILE_COLUMNS = 'member_id, email, name, first_name, last_name, locale, time_zone';

export function teamRepo(db: Queryable) {
  return {
    async insert(member: {
      accountId: string;
      memberId: string;
      email: string;
      name: string;
      role: TeamRole;
      status?: TeamStatus;
      passwordHash?: string;
      invite?: { hash: string; expiresAt: Date };
    }): Promise<TeamMemberRow | undefined> {
      const [row] = await db.query<TeamMemberRow>(
        `insert into team_members (account_id, member_id, email, name, role, status, password_hash, invite_hash, invite_expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (account_id, lower(email)) do nothing returning ${COLUMNS}`,
        [
          member.accountId,
          member.memberId,
          member.email,
          member.name,
          member.role,
          member.status ?? 'pending',
          member.passwordHash ?? null,
          member.invite?.hash ?? null,
          member.invite?.expiresAt.toISOString() ?? null,
        ],
      );
      return row;
    },

    async list(accountId: string): Promise<TeamMemberRow[]> {
      return db.query<TeamMemberRow>(
        `select ${COLUMNS} from team_members where account_id = $1 order by created_at, member_id`,
        [accountId],
      );
    },

    async get(accountId: string, memberId: string): Promise<TeamMemberRow | undefined> {
      const [row] = await db.query<TeamMemberRow>(
        `select ${COLUMNS} from team_members where account_id = $1 and member_id = $2`,
        [accountId, memberId],
      );
      return row;
    },

    /** Active members with a password under this email, in every account, oldest account first. */
    async signInCandidates(email: string): Promise<MemberCredentials[]> {
      return db.query<MemberCredentials>(
        `select m.account_id, m.member_id, m.password_hash from team_members m
         join accounts a on a.account_id = m.account_id
         where lower(m.email) = lower($1) and m.status = 'active' and m.password_hash is not null
         order by a.created_at, a.account_id`,
        [email],
      );
    },

    async credentials(accountId: string, memberId: string): Promise<MemberCredentials | undefined> {
      const [row] = await db.query<MemberCredentials>(
        `select account_id, member_id, password_hash from team_members
         where account_id = $1 and member_id = $2 and password_hash is not null`,
        [accountId, memberId],
      );
      return row;
    },

    async setPassword(accountId: string, memberId: string, passwordHash: string): Promise<void> {
      await db.query('update team_members set password_hash = $3 where account_id = $1 and member_id = $2', [
        accountId,
        memberId,
        passwordHash,
      ]);
    },

    async recordLogin(accountId: string, memberId: string, at: Date): Promise<void> {
      await db.query('update team_members set last_login = $3 where account_id = $1 and member_id = $2', [
        accountId,
        memberId,
        at.toISOString(),
      ]);
    },

    async update(
      accountId: string,
      memberId: string,
      change: { role?: TeamRole; status?: TeamStatus },
    ): Promise<TeamMemberRow | undefined> {
      const [row] = await db.query<TeamMemberRow>(
        `update team_members set role = coalesce($3, role), status = coalesce($4, status)
         where account_id = $1 and member_id = $2 returning ${COLUMNS}`,
        [accountId, memberId, change.role ?? null, change.status ?? null],
      );
      return row;
    },

    /**
     * Accepts a pending invitation once: sets the password and name, activates the member and
     * forgets the invitation, so the link cannot be used again.
     */
    async acceptInvite(
      inviteHash: string,
      now: Date,
      accepted: { passwordHash: string; name?: string },
    ): Promise<(TeamMemberRow & { account_id: string }) | undefined> {
      const [row] = await db.query<TeamMemberRow & { account_id: string }>(
        `update team_members set password_hash = $3, name = coalesce($4, name), status = 'active',
           invite_hash = null, invite_expires_at = null
         where invite_hash = $1 and invite_expires_at > $2 and status = 'pending'
         returning account_id, ${COLUMNS}`,
        [inviteHash, now.toISOString(), accepted.passwordHash, accepted.name ?? null],
      );
      return row;
    },

    async inviteIsLive(inviteHash: string, now: Date): Promise<{ email: string; name: string } | undefined> {
      const [row] = await db.query<{ email: string; name: string }>(
        `select email, name from team_members
         where invite_hash = $1 and invite_expires_at > $2 and status = 'pending'`,
        [inviteHash, now.toISOString()],
      );
      return row;
    },

    /** Accounts nobody can sign in to as owner yet: the ones that need a setup link. */
    async accountsWithoutOwner(): Promise<string[]> {
      const rows = await db.query<{ account_id: string }>(
        `select a.account_id from accounts a where not exists (
           select 1 from team_members m
           where m.account_id = a.account_id and m.role = 'owner' and m.status = 'active' and m.password_hash is not null)
         order by a.created_at, a.account_id`,
      );
      return rows.map((row) => row.account_id);
    },

    async profile(accountId: string, memberId: string): Promise<MemberProfileRow | undefined> {
      const [row] = await db.query<MemberProfileRow>(
        `select ${PROFILE_COLUMNS} from team_members where account_id = $1 and member_id = $2`,
        [accountId, memberId],
      );
      return row;
    },

    /** The account's owner: the person an API key of the account answers for. */
    async owner(accountId: string): Promise<string | undefined> {
      const [row] = await db.query<{ member_id: string }>(
        `select member_id from team_members where account_id = $1 and role = 'owner'
         order by status = 'active' desc, created_at, member_id limit 1`,
        [accountId],
      );
      return row?.member_id;
    },

    /** Sets the given fields; `name` is the display name the first and last name make. */
    async updateProfile(
      accountId: string,
      memberId: string,
      change: ProfileChange & { name: string },
    ): Promise<MemberProfileRow | undefined> {
      const [row] = await db.query<MemberProfileRow>(
        `update team_members set name = $3, first_name = coalesce($4, first_name), last_name = coalesce($5, last_name),
           locale = coalesce($6, locale), time_zone = coalesce($7, time_zone)
         where account_id = $1 and member_id = $2 returning ${PROFILE_COLUMNS}`,
        [
          accountId,
          memberId,
          change.name,
          change.first_name ?? null,
          change.last_name ?? null,
          change.locale ?? null,
          change.time_zone ?? null,
        ],
      );
      return row;
    },

    /** Every account where this email is a member that is not disabled, oldest account first. */
    async accountsOf(email: string): Promise<MemberAccountRow[]> {
      return db.query<MemberAccountRow>(
        `select a.account_id, a.name, m.role from team_members m
         join accounts a on a.account_id = m.account_id
         where lower(m.email) = lower($1) and m.status <> 'disabled'
         order by a.created_at, a.account_id`,
        [email],
      );
    },

    async delete(accountId: string, memberId: string): Promise<boolean> {
      const rows = await db.query(
        'delete from team_members where account_id = $1 and member_id = $2 returning member_id',
        [accountId, memberId],
      );
      return rows.length > 0;
    },
  };
}
