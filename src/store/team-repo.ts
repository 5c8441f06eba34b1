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

const COLUMNS = 'member_id, email, name, role, status, last_login';

export function teamRepo(db: Queryable) {
  return {
    async insert(member: {
      accountId: string;
      memberId: string;
      email: string;
      name: string;
      role: TeamRole;
    }): Promise<TeamMemberRow | undefined> {
      const [row] = await db.query<TeamMemberRow>(
        `insert into team_members (account_id, member_id, email, name, role) values ($1, $2, $3, $4, $5)
         on conflict (account_id, lower(email)) do nothing returning ${COLUMNS}`,
        [member.accountId, member.memberId, member.email, member.name, member.role],
      );
      return row;
    },

    async list(accountId: string): Promise<TeamMemberRow[]> {
      return db.query<TeamMemberRow>(
        `select ${COLUMNS} from team_members where account_id = $1 order by created_at, member_id`,
        [accountId],
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
