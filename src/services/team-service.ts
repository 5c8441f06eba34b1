import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Store } from '../store/open-store.js';
import type { TeamMemberRow, TeamRole } from '../store/team-repo.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { isUuid } from './ids.js';

export const TEAM_ROLES = ['owner', 'admin', 'readonly'] as const;

export type TeamMember = Omit<TeamMemberRow, 'member_id'> & { id: string };

function member({ member_id, ...rest }: TeamMemberRow): TeamMember {
  return { id: member_id, ...rest };
}

export function createTeamService(store: Store) {
  return {
    async list(accountId: string): Promise<TeamMember[]> {
      return (await store.team.list(accountId)).map(member);
    },

    /** Invites a member: pending until they first sign in to the web interface. */
    async add(accountId: string, input: { email: string; name?: string; role: string }): Promise<TeamMember> {
      if (!z.email().safeParse(input.email).success) {
        throw new InvalidInputError(`email "${input.email}" is not a valid email address`);
      }
      if (!(TEAM_ROLES as readonly string[]).includes(input.role)) {
        throw new InvalidInputError(`role must be one of ${TEAM_ROLES.join(', ')}`);
      }
      const row = await store.team.insert({
        accountId,
        memberId: randomUUID(),
        email: input.email,
        name: input.name ?? '',
        role: input.role as TeamRole,
      });
      if (!row) throw new ConflictError(`A team member with email ${input.email} already exists`);
      return member(row);
    },

    async delete(accountId: string, memberId: string): Promise<void> {
      if (!isUuid(memberId) || !(await store.team.delete(accountId, memberId))) {
        throw new NotFoundError(`Team member ${memberId} not found`);
      }
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
