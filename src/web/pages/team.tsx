import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Actions, ErrorText, Field, useActions, useSubmit } from '../components/form.js';
import { SecretOnce } from '../components/secret-once.js';
import { canChange, Refused } from '../components/settings.js';
import { dateTime } from '../format.js';
import type { Session } from '../session.js';
import { useLoad } from '../use-load.js';

interface Member {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'readonly';
  status: 'active' | 'pending' | 'disabled';
  last_login: string | null;
}

export function Team({ session }: { session: Session }) {
  return canChange(session) ? <ManageTeam session={session} /> : <Refused what="the team" />;
}

function ManageTeam({ session }: { session: Session }) {
  const [team, reload] = useLoad(() => api.get<{ result: { list: Member[] } }>('/account/team'), 'team');
  const [inviteLink, setInviteLink] = useState<string>();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<'readonly' | 'admin'>('readonly');
  const actions = useActions(reload);
  const invite = useSubmit(async () => {
    const invited = await api.post<{ invite_token: string }>('/web/team', {
      email,
      role,
      ...(name ? { name } : {}),
    });
    setInviteLink(`${window.location.origin}/#/invite/${invited.invite_token}`);
    setEmail('');
    setName('');
    reload();
  });
  const change = (member: Member, body: { role?: string; status?: string }) =>
    actions.run(() => api.patch(`/web/team/${member.id}`, body));

  return (
    <main>
      <h1>Team</h1>
      <p class="hint">Owners and admins change data and settings; readonly members see the figures.</p>
      {inviteLink && (
        <SecretOnce
          title="Invitation link"
          value={inviteLink}
          note="Send it to the new member: it works once, for 7 days, and is not shown again."
          onDone={() => setInviteLink(undefined)}
        />
      )}
      <form class="inline-form" onSubmit={invite.onSubmit}>
        <Field label="Email">
          <input
            type="email"
            name="invite-email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field label="Name">
          <input name="invite-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="Role">
          <select
            name="invite-role"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as 'readonly' | 'admin')}
          >
            <option value="readonly">Readonly</option>
            <option value="admin">Admin</option>
          </select>
        </Field>
        <button type="submit" disabled={invite.busy}>
          Invite
        </button>
      </form>
      <ErrorText message={invite.error ?? actions.error} />
      {team.state === 'loading' && <p class="status">Loading the team…</p>}
      {team.state === 'error' && <p class="error">The team could not be loaded: {team.message}</p>}
      {team.state === 'done' && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th>Status</th>
                <th>Last sign-in</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {team.value.result.list.map((member) => {
                const fixed = member.role === 'owner' || member.id === session.member.id;
                return (
                  <tr key={member.id} data-member={member.email}>
                    <td>
                      {member.name || member.email}
                      {member.name && <small class="muted"> {member.email}</small>}
                    </td>
                    <td>
                      {fixed ? (
                        member.role
                      ) : (
                        <select
                          aria-label={`Role of ${member.email}`}
                          value={member.role}
                          onChange={(e) => change(member, { role: e.currentTarget.value })}
                        >
                          <option value="readonly">readonly</option>
                          <option value="admin">admin</option>
                        </select>
                      )}
                    </td>
                    <td>{member.status}</td>
                    <td>{dateTime(member.last_login)}</td>
                    <Actions>
                      {!fixed && member.status !== 'pending' && (
                        <button
                          type="button"
                          class={member.status === 'disabled' ? 'secondary' : 'danger'}
                          onClick={() =>
                            change(member, { status: member.status === 'disabled' ? 'active' : 'disabled' })
                          }
                        >
                          {member.status === 'disabled' ? 'Enable' : 'Disable'}
                        </button>
                      )}
                    </Actions>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
