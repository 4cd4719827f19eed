import { useState } from 'preact/hooks';
import { dashboard } from '../api';
import { useSession } from '../session';
import { CopyButton, ErrorNote, Page, TextField, formatTime, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';

type Role = 'owner' | 'member';

interface TeamMember {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
}

interface Invite {
  email: string;
  role: Role;
  token: string;
  expires_at: string;
}

const roleLabel = (role: Role) => (role === 'owner' ? 'Owner' : 'Member');

/** Settings → Team: who is in the workspace, and (owners) inviting someone by a one-time link. */
export function TeamSettings() {
  const { user } = useSession();
  const team = useAsync(() => dashboard.get<TeamMember[]>('team'), []);
  return (
    <Page title="Team">
      <SettingsNav />
      {user.role === 'owner' ? (
        <InviteForm onInvited={team.reload} />
      ) : (
        <p class="muted">Only a workspace owner can invite teammates.</p>
      )}
      <ErrorNote error={team.error} />
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Team members</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {team.data?.map((member) => (
              <tr key={member.id}>
                <td>
                  {member.name}
                  {member.id === user.id && <span class="muted"> (you)</span>}
                </td>
                <td>{member.email}</td>
                <td>{roleLabel(member.role)}</td>
                <td>{formatTime(member.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [invite, setInvite] = useState<Invite | null>(null);
  const send = useSubmit(async () => {
    setInvite(null);
    setInvite(await dashboard.post<Invite>('invites', { email, role }));
    setEmail('');
    onInvited();
  });
  const link = invite && `${location.origin}/invite/${invite.token}`;

  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a teammate</h2>
      <form class="inline-form" onSubmit={send.onSubmit} aria-labelledby="invite-title">
        <TextField label="Email" type="email" required maxLength={254} value={email} onValue={setEmail} />
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </select>
        </div>
        <button class="primary" type="submit" disabled={send.busy}>
          Create invite link
        </button>
      </form>
      <ErrorNote error={send.error} />
      <div role="status">
        {invite && link && (
          <div class="notice">
            <p>
              Send this link to <strong>{invite.email}</strong> ({roleLabel(invite.role).toLowerCase()}). It works once
              and expires {formatTime(invite.expires_at)}; it is shown only now.
            </p>
            <p class="secret">
              <code data-testid="invite-link">{link}</code> <CopyButton text={link} label="Copy link" />
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
