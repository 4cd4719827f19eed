import { useState } from 'preact/hooks';
import { action, dashboard } from '../../api';
import { Link } from '../../router';
import { can, useSession } from '../../session';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { categoryLabel, StatusBadge, statusLabel, type TemplateSummary } from './template-parts';

const FILTER_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'IN_APPEAL'];

interface SyncChange {
  template_id: string;
  name: string;
  language: string;
  change: 'added' | 'updated';
  previous_status: string | null;
  status: string;
}

interface SyncResult {
  templates: number;
  translations: number;
  skipped: { name: string; language: string; reason: string }[];
  changes: SyncChange[];
}

/** Templates: every template with its translations' statuses, a filter, and "Sync from WhatsApp". */
export function TemplatesList() {
  const writes = can(useSession().user, 'templates');
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const list = useAsync(() => action<TemplateSummary[]>('list-templates', { name, status }), [name, status]);
  const [synced, setSynced] = useState<SyncResult | null>(null);
  const sync = useSubmit(async () => {
    setSynced(null);
    setSynced(await dashboard.post<SyncResult>('templates/sync'));
    list.reload();
  });
  const simulated = useSimulatedChannel();

  return (
    <Page
      title="Templates"
      actions={
        writes && (
          <>
            {!simulated && (
              <button type="button" onClick={() => void sync.run()} disabled={sync.busy}>
                {sync.busy ? 'Syncing…' : 'Sync from WhatsApp'}
              </button>
            )}
            <Link class="button primary" href="/templates/new">
              New template
            </Link>
          </>
        )
      }
    >
      <div role="status" aria-live="polite">
        {synced && <SyncReport result={synced} />}
      </div>
      <ErrorNote error={sync.error} />
      {simulated && (
        <p class="hint" data-testid="sync-simulator-note">
          Templates come from WhatsApp only with a real WhatsApp number: this workspace sends through the simulator, so
          create templates here (the simulator approves them). To sync the templates of your WhatsApp Business account,
          connect a number in <Link href="/settings/channel">Settings → Channel</Link>.
        </p>
      )}
      <form class="inline-form" role="search" aria-label="Filter templates" onSubmit={(e) => e.preventDefault()}>
        <TextField label="Name contains" type="search" value={name} onValue={setName} />
        <div class="field">
          <label for="template-status-filter">Translation status</label>
          <select id="template-status-filter" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">Any status</option>
            {FILTER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <ErrorNote error={list.error} />
      {list.data && list.data.length === 0 && (
        <p class="muted">
          {name || status
            ? 'No template matches.'
            : 'No templates yet: sync them from WhatsApp, or create one to record a template you submitted to Meta.'}
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table class="templates-table">
            <caption class="visually-hidden">Templates</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Category</th>
                <th scope="col">Translations</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <Link href={`/templates/${t.id}`}>{t.name}</Link>
                  </th>
                  <td>{categoryLabel(t.category)}</td>
                  <td>
                    <ul class="translation-list" aria-label={`Translations of ${t.name}`}>
                      {t.translations.map((tr) => (
                        <li key={tr.language}>
                          <Link href={`/templates/${t.id}?language=${encodeURIComponent(tr.language)}`}>
                            <code>{tr.language}</code>
                          </Link>{' '}
                          <StatusBadge status={tr.status} />
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}

/**
 * Whether the workspace sends through the simulator (its default number): templates sync from Meta
 * only for a WhatsApp Cloud number, so the page explains that instead of offering a sync that must fail.
 */
function useSimulatedChannel(): boolean {
  const channels = useAsync(
    () => action<{ channels: { provider: string; is_default: boolean }[] }>('list-channels'),
    [],
  );
  return channels.data?.channels.find((c) => c.is_default)?.provider === 'simulator';
}

function SyncReport({ result }: { result: SyncResult }) {
  return (
    <div class="notice sync-report">
      <p>
        Synced {result.templates} template{result.templates === 1 ? '' : 's'} ({result.translations} translation
        {result.translations === 1 ? '' : 's'}) from WhatsApp.{' '}
        {result.changes.length === 0 ? 'Everything was already up to date.' : `${result.changes.length} changed:`}
      </p>
      {result.changes.length > 0 && (
        <ul>
          {result.changes.map((c) => (
            <li key={`${c.name} ${c.language}`}>
              <Link href={`/templates/${c.template_id}?language=${encodeURIComponent(c.language)}`}>{c.name}</Link>{' '}
              <code>{c.language}</code>:{' '}
              {c.change === 'added'
                ? `added, ${statusLabel(c.status)}`
                : c.previous_status !== c.status
                  ? `${statusLabel(c.previous_status ?? '')} → ${statusLabel(c.status)}`
                  : 'content updated'}
            </li>
          ))}
        </ul>
      )}
      {result.skipped.length > 0 && (
        <div class="warning">
          <p>Skipped (Parley cannot represent them):</p>
          <ul>
            {result.skipped.map((s) => (
              <li key={`${s.name} ${s.language}`}>
                {s.name} <code>{s.language}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
