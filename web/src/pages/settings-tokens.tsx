import { useState } from 'preact/hooks';
import { dashboard } from '../api';
import { can, useSession } from '../session';
import { CopyButton, DeleteButton, ErrorNote, Page, Table, TextField, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { formatDateTime } from '../i18n/format';

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scope: 'full' | 'read';
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface IssuedToken {
  id: string;
  name: string;
  token: string;
}

/** Settings → API Tokens: mint (shown once), list and revoke the tokens integrations use. */
export function ApiTokens() {
  const { user } = useSession();
  const tokens = useAsync(() => dashboard.get<TokenRow[]>('tokens'), []);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const create = useSubmit(async () => {
    setIssued(await dashboard.post<IssuedToken>('tokens', { name, scope }));
    setName('');
    tokens.reload();
  });

  return (
    <Page title="API Tokens">
      <SettingsNav />
      <p>
        Integrations call Parley's API with a bearer token. Give each integration its own, so you can revoke one alone.
        A token acts as you, with your role as it is now; you can revoke your own tokens, and an owner or admin can
        revoke any.
      </p>
      <form class="inline-form" onSubmit={create.onSubmit} aria-label="Create a token">
        <TextField
          label="Token name"
          required
          maxLength={100}
          value={name}
          onValue={setName}
          placeholder="e.g. Zapier"
        />
        <div class="field">
          <label for="token-scope">Access</label>
          <select id="token-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as 'full' | 'read')}>
            <option value="full">Full access</option>
            <option value="read">Read only</option>
          </select>
        </div>
        <button class="primary" type="submit" disabled={create.busy}>
          Create token
        </button>
      </form>
      <ErrorNote error={create.error} />
      {issued && (
        <div class="notice" role="status">
          <p>
            <strong>{issued.name}</strong>: copy the token now — it is shown only once.
          </p>
          <p class="secret">
            <code data-testid="new-token">{issued.token}</code> <CopyButton text={issued.token} />
          </p>
        </div>
      )}
      <ErrorNote error={tokens.error} />
      <Table caption="API tokens" columns={['Name', 'Prefix', 'Access', 'Created by', 'Last used']} actions>
        {tokens.data?.map((token) => (
          <tr key={token.id} class={token.revoked_at ? 'muted' : ''}>
            <td>{token.name}</td>
            <td>
              <code>{token.prefix}…</code>
            </td>
            <td>{token.scope === 'read' ? 'Read only' : 'Full'}</td>
            <td>{token.created_by}</td>
            <td>{formatDateTime(token.last_used_at)}</td>
            <td>
              {token.revoked_at ? (
                `Revoked ${formatDateTime(token.revoked_at)}`
              ) : token.created_by !== user.email && !can(user, 'revoke_any_token') ? null : (
                <DeleteButton
                  label="Revoke"
                  question={`Revoke “${token.name}”? Integrations using it stop working at once.`}
                  confirmLabel="Revoke token"
                  path={`tokens/${token.id}`}
                  onDeleted={tokens.reload}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
    </Page>
  );
}
