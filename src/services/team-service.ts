import { randomUUID } from 'node:crypto';
import type { Store } from '../store/open-store.js';
import type { TeamMemberRow, TeamRole, TeamStatus } from '../store/team-repo.js';
import { newToken } from './api-key-secrets.js';
import type { Clock } from './clock.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from './errors.js';
import { isUuid } from './ids.js';
import { checkEmail, INVITE_LIFETIME_MS } from './web-auth-service.js';

export const TEAM_ROLES = ['owner', 'admin', 'readonly'] as const;
/** Roles that can be given: an account has one owner, the one who set it up. */
export const ASSIGNABLE_ROLES = ['admin', 'readonly'] as const;
/** Statuses that can be set; `pending` is only ever the state of an unaccepted invitation. */
export const SETTABLE_STATUSES = ['active', 'disabled'] as const;

export type TeamMember = Omit<TeamMemberRow, 'member_id'> & { id: string };

export interface Invitation {
  member: TeamMember;
  /** Shown once to whoever invites; the member opens it to set a password. */
  token: string;
}

function member({ member_id, ...rest }: TeamMemberRow): TeamMember {
  return { id: member_id, ...rest };
}

function checkRole(role: string, allowed: readonly string[]): TeamRole {
  if (!allowed.includes(role)) throw new InvalidInputError(`role must be one of ${allowed.join(', ')}`);
  return role as TeamRole;
}

export function createTeamService(store: Store, clock: Clock) {
  async function existing(accountId: string, memberId: string): Promise<TeamMemberRow> {
    const row = isUuid(memberId) ? await store.team.get(accountId, memberId) : undefined;
    if (!row) throw new NotFoundError(`Team member ${memberId} not found`);
    return row;
  }

  return {
    async list(accountId: string): Promise<TeamMember[]> {
      return (await store.team.list(accountId)).map(member);
    },

    /** Adds a member without a way to sign in yet (the CLI's `team add`): pending. */
    async add(accountId: string, input: { email: string; name?: string; role: string }): Promise<TeamMember> {
      checkEmail(input.email);
      const row = await store.team.insert({
        accountId,
        memberId: randomUUID(),
        email: input.email,
        name: input.name ?? '',
        role: checkRole(input.role, TEAM_ROLES),
      });
      if (!row) throw new ConflictError(`A team member with email ${input.email} already exists`);
      return member(row);
    },

    /** Invites a member: pending, with a one-time link to set a password, until they accept. */
    async invite(
      accountId: string,
      input: { email: string; name?: string; role: string },
    ): Promise<Invitation> {
      checkEmail(input.email);
      const { token, tokenHash } = newToken();
      const row = await store.team.insert({
        accountId,
        memberId: randomUUID(),
        email: input.email,
        name: input.name ?? '',
        role: checkRole(input.role, ASSIGNABLE_ROLES),
        invite: { hash: tokenHash, expiresAt: new Date(clock.now().getTime() + INVITE_LIFETIME_MS) },
      });
      if (!row) throw new ConflictError(`A team member with email ${input.email} already exists`);
      return { member: member(row), token };
    },

    /**
     * Changes another member's role or disables or re-enables them. The owner is out of reach,
     * and nobody changes themselves, so an account always keeps someone who can sign in and manage it.
     * A disabled member's sessions end at once.
     */
    async change(
      accountId: string,
      actorId: string,
      memberId: string,
      change: { role?: string; status?: string },
    ): Promise<TeamMember> {
      const target = await existing(accountId, memberId);
      if (target.role === 'owner') throw new ForbiddenError("The owner's role and status cannot be changed");
      if (memberId === actorId) throw new ForbiddenError('You cannot change your own role or status');
      const role = change.role === undefined ? undefined : checkRole(change.role, ASSIGNABLE_ROLES);
      let status: TeamStatus | undefined;
      if (change.status !== undefined) {
        if (!(SETTABLE_STATUSES as readonly string[]).includes(change.status))
          throw new InvalidInputError(`status must be one of ${SETTABLE_STATUSES.join(', ')}`);
        if (change.status === 'active' && target.status === 'pending')
          throw new InvalidInputError('A pending member becomes active by accepting the invitation');
        status = change.status as TeamStatus;
      }
      return store.transaction(async (tx) => {
        const row = await tx.team.update(accountId, memberId, { role, status });
        if (!row) throw new NotFoundError(`Team member ${memberId} not found`);
        if (status === 'disabled') await tx.webSessions.deleteOfMember(accountId, memberId);
        return member(row);
      });
    },

    async delete(accountId: string, memberId: string): Promise<void> {
      if (!isUuid(memberId) || !(await store.team.delete(accountId, memberId))) {
        throw new NotFoundError(`Team member ${memberId} not found`);
      }
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
