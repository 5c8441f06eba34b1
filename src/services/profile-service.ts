import { z } from 'zod';
import { isTimeZone } from '../engine/time-zone.js';
import type { Store } from '../store/open-store.js';
import type { MemberProfileRow, ProfileChange, TeamRole } from '../store/team-repo.js';
import { NotFoundError } from './errors.js';

/** Who `/profile` is about: the signed-in member, or for an API key the account's owner. */
export type ProfileSubject = { accountId: string; memberId: string } | { accountId: string };

export interface Profile {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  locale: string | null;
  timezone: string | null;
  accounts: { account_id: string; name: string; role: TeamRole }[];
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

export const profileChangeSchema = z.strictObject({
  first_name: z.string().trim().min(1).max(100).optional(),
  last_name: z.string().trim().min(1).max(100).optional(),
  locale: z.string().refine(isLocale, 'locale must be a BCP 47 language tag such as en or da-DK').optional(),
  timezone: z
    .string()
    .refine(isTimeZone, 'timezone must be an IANA time zone such as Europe/Copenhagen')
    .optional(),
});

export type ProfileChangeInput = z.infer<typeof profileChangeSchema>;

/** Before a first or last name is set, both come from the display name, split at its first space. */
function names(row: MemberProfileRow): { first: string | null; last: string | null } {
  if (row.first_name !== null || row.last_name !== null)
    return { first: row.first_name, last: row.last_name };
  const name = row.name.trim();
  if (name === '') return { first: null, last: null };
  const space = name.indexOf(' ');
  return space < 0
    ? { first: name, last: null }
    : { first: name.slice(0, space), last: name.slice(space + 1).trim() };
}

export function createProfileService(store: Store) {
  async function memberOf(subject: ProfileSubject): Promise<{ accountId: string; memberId: string }> {
    if ('memberId' in subject) return subject;
    const owner = await store.team.owner(subject.accountId);
    if (!owner)
      throw new NotFoundError(
        'This account has no owner yet: open the setup link the server printed at start to create one',
      );
    return { accountId: subject.accountId, memberId: owner };
  }

  /**
   * For a signed-in member, every account of their email; for an API key only its own, since
   * the key speaks for one account and must not learn of the owner's others.
   */
  async function view(row: MemberProfileRow, subject: ProfileSubject): Promise<Profile> {
    const { first, last } = names(row);
    const accounts = await store.team.accountsOf(row.email);
    return {
      id: row.member_id,
      email: row.email,
      first_name: first,
      last_name: last,
      locale: row.locale,
      timezone: row.time_zone,
      accounts:
        'memberId' in subject
          ? accounts
          : accounts.filter((account) => account.account_id === subject.accountId),
    };
  }

  async function current(
    subject: ProfileSubject,
  ): Promise<{ key: { accountId: string; memberId: string }; row: MemberProfileRow }> {
    const key = await memberOf(subject);
    const row = await store.team.profile(key.accountId, key.memberId);
    if (!row) throw new NotFoundError('Team member not found');
    return { key, row };
  }

  return {
    async get(subject: ProfileSubject): Promise<Profile> {
      return view((await current(subject)).row, subject);
    },

    async update(subject: ProfileSubject, input: ProfileChangeInput): Promise<Profile> {
      const { key, row } = await current(subject);
      const { timezone, ...rest } = input;
      const change: ProfileChange = { ...rest, ...(timezone !== undefined && { time_zone: timezone }) };
      const before = names(row);
      const first = change.first_name ?? before.first;
      const last = change.last_name ?? before.last;
      // Both names are stored once either is given, so a later display-name split cannot undo them.
      const stored: ProfileChange = {
        ...change,
        ...(first !== null && { first_name: first }),
        ...(last !== null && { last_name: last }),
      };
      const name = [first, last].filter((part) => part !== null).join(' ');
      const updated = await store.team.updateProfile(key.accountId, key.memberId, { ...stored, name });
      if (!updated) throw new NotFoundError('Team member not found');
      return view(updated, subject);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
