import { useState } from 'preact/hooks';
import { dashboard } from '../api/client';
import { can, useSession } from '../session';
import { CopyButton, DeleteButton, ErrorNote, Page, Table, TextField, useAsync, useSubmit } from '../ui';
import { Rich } from '../i18n/rich';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';
import { formatDateTime } from '../i18n/format';

interface IssuedToken {
  id: string;
  name: string;
  token: string;
}

/** Settings → API Tokens: mint (shown once), list and revoke the tokens integrations use. */
export function ApiTokens() {
  const { user } = useSession();
  const tokens = useAsync(() => dashboard.get('/api/dashboard/tokens'), []);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [mode, setMode] = useState<'direct' | 'approval'>('direct');
  const [timeoutMinutes, setTimeoutMinutes] = useState('60');
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const create = useSubmit(async () => {
    const approval = mode === 'approval' && { mode, approval_timeout_minutes: Number(timeoutMinutes) };
    setIssued(await dashboard.post('/api/dashboard/tokens', { body: { name, scope, ...approval } }));
    setName('');
    tokens.reload();
  });

  return (
    <Page title={t('settings:tokens.title')}>
      <SettingsNav />
      <p>{t('settings:tokens.intro')}</p>
      <form class="inline-form" onSubmit={create.onSubmit} aria-label={t('settings:tokens.createLabel')}>
        <TextField
          label={t('settings:tokens.tokenName')}
          required
          maxLength={100}
          value={name}
          onValue={setName}
          placeholder={t('settings:tokens.tokenNamePlaceholder')}
        />
        <div class="field">
          <label for="token-scope">{t('settings:tokens.access')}</label>
          <select id="token-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as 'full' | 'read')}>
            <option value="full">{t('settings:tokens.fullAccess')}</option>
            <option value="read">{t('settings:tokens.readOnly')}</option>
          </select>
        </div>
        <div class="field">
          <label for="token-mode">{t('settings:tokens.sends')}</label>
          <select
            id="token-mode"
            value={mode}
            aria-describedby="token-mode-hint"
            onChange={(e) => setMode(e.currentTarget.value as 'direct' | 'approval')}
          >
            <option value="direct">{t('settings:tokens.direct')}</option>
            <option value="approval">{t('settings:tokens.approval')}</option>
          </select>
          <small id="token-mode-hint" class="hint">
            {t('settings:tokens.sendsHint')}
          </small>
        </div>
        {mode === 'approval' && (
          <TextField
            label={t('settings:tokens.approvalTimeout')}
            type="number"
            min={1}
            max={10080}
            required
            value={timeoutMinutes}
            {...create.bind('approval_timeout_minutes', setTimeoutMinutes)}
            hint={t('settings:tokens.approvalTimeoutHint')}
          />
        )}
        <button class="primary" type="submit" disabled={create.busy}>
          {t('settings:tokens.create')}
        </button>
      </form>
      <ErrorNote
        error={create.error}
        labels={{
          name: t('settings:tokens.tokenName'),
          approval_timeout_minutes: t('settings:tokens.approvalTimeout'),
        }}
      />
      {issued && (
        <div class="notice" role="status">
          <p>
            <Rich text={t('settings:tokens.issued', { name: issued.name })} />
          </p>
          <p class="secret">
            <code data-testid="new-token">{issued.token}</code> <CopyButton text={issued.token} />
          </p>
        </div>
      )}
      <ErrorNote error={tokens.error} />
      <Table
        caption={t('settings:tokens.caption')}
        columns={[
          t('settings:tokens.name'),
          t('settings:tokens.prefix'),
          t('settings:tokens.access'),
          t('settings:tokens.sends'),
          t('settings:tokens.createdBy'),
          t('settings:tokens.lastUsed'),
        ]}
        actions
      >
        {tokens.data?.map((token) => (
          <tr key={token.id} class={token.revoked_at ? 'muted' : ''}>
            <td>{token.name}</td>
            <td>
              <code>{token.prefix}…</code>
            </td>
            <td>{token.scope === 'read' ? t('settings:tokens.readOnly') : t('settings:tokens.full')}</td>
            <td data-mode={token.mode}>
              {token.mode === 'approval'
                ? t('settings:tokens.waitsApproval', { count: token.approval_timeout_minutes ?? 0 })
                : t('settings:tokens.direct')}
            </td>
            <td>{token.created_by}</td>
            <td>{formatDateTime(token.last_used_at)}</td>
            <td>
              {token.revoked_at ? (
                t('settings:tokens.revoked', { when: formatDateTime(token.revoked_at) })
              ) : token.created_by !== user.email && !can(user, 'revoke_any_token') ? null : (
                <DeleteButton
                  label={t('settings:tokens.revoke')}
                  question={t('settings:tokens.revokeQuestion', { name: token.name })}
                  confirmLabel={t('settings:tokens.revokeConfirm')}
                  path="/api/dashboard/tokens/{id}"
                  id={token.id}
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
