import { useState } from 'preact/hooks';
import { action, dashboard, type DashboardAnswer } from '../../api/client';
import { Link } from '../../router';
import { can, useSession } from '../../session';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { t } from '../../i18n/i18n';
import { counted } from '../../i18n/format';
import { categoryLabel, languageLabel, StatusBadge, statusLabel } from './template-parts';

const FILTER_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'IN_APPEAL'];

type SyncResult = DashboardAnswer<'/api/dashboard/templates/sync', 'post'>;

/** Templates: every template with its translations' statuses, a filter, and "Sync from WhatsApp". */
export function TemplatesList() {
  const writes = can(useSession().user, 'templates');
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const list = useAsync(() => action('list-templates', { name, status }), [name, status]);
  const [synced, setSynced] = useState<SyncResult | null>(null);
  const sync = useSubmit(async () => {
    setSynced(null);
    setSynced(await dashboard.post('/api/dashboard/templates/sync'));
    list.reload();
  });
  const simulated = useSimulatedChannel();

  return (
    <Page
      title={t('templates:list.title')}
      actions={
        writes && (
          <>
            {!simulated && (
              <button type="button" onClick={() => void sync.run()} disabled={sync.busy}>
                {sync.busy ? t('templates:list.syncing') : t('templates:list.sync')}
              </button>
            )}
            <Link class="button primary" href="/templates/new">
              {t('templates:list.new')}
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
          {t('templates:list.simulatorNote')}{' '}
          <Link href="/settings/channel">{t('templates:list.channelSettings')}</Link>.
        </p>
      )}
      <form
        class="inline-form"
        role="search"
        aria-label={t('templates:list.filter')}
        onSubmit={(e) => e.preventDefault()}
      >
        <TextField label={t('templates:list.nameContains')} type="search" value={name} onValue={setName} />
        <div class="field">
          <label for="template-status-filter">{t('templates:list.translationStatus')}</label>
          <select id="template-status-filter" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">{t('templates:list.anyStatus')}</option>
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
        <p class="muted">{name || status ? t('templates:list.noMatch') : t('templates:list.empty')}</p>
      )}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table class="templates-table">
            <caption class="visually-hidden">{t('templates:list.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('templates:list.name')}</th>
                <th scope="col">{t('templates:list.category')}</th>
                <th scope="col">{t('templates:list.translations')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((template) => (
                <tr key={template.id}>
                  <th scope="row">
                    <Link href={`/templates/${template.id}`}>{template.name}</Link>
                  </th>
                  <td>{categoryLabel(template.category)}</td>
                  <td>
                    <ul
                      class="translation-list"
                      aria-label={t('templates:list.translationsOf', { name: template.name })}
                    >
                      {template.translations.map((tr) => (
                        <li key={tr.language}>
                          <Link href={`/templates/${template.id}?language=${encodeURIComponent(tr.language)}`}>
                            {languageLabel(tr.language)}
                          </Link>{' '}
                          <code>{tr.language}</code> <StatusBadge status={tr.status} />
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
  const channels = useAsync(() => action('list-channels', {}), []);
  return channels.data?.channels.find((c) => c.is_default)?.provider === 'simulator';
}

function SyncReport({ result }: { result: SyncResult }) {
  return (
    <div class="notice sync-report">
      <p>
        {t('templates:sync.synced', {
          templates: t('templates:sync.templates', counted(result.templates)),
          translations: t('templates:sync.translations', counted(result.translations)),
        })}{' '}
        {result.changes.length === 0
          ? t('templates:sync.upToDate')
          : t('templates:sync.changed', counted(result.changes.length))}
      </p>
      {result.changes.length > 0 && (
        <ul>
          {result.changes.map((c) => (
            <li key={`${c.name} ${c.language}`}>
              <Link href={`/templates/${c.template_id}?language=${encodeURIComponent(c.language)}`}>{c.name}</Link>{' '}
              <code>{c.language}</code>:{' '}
              {c.change === 'added'
                ? t('templates:sync.added', { status: statusLabel(c.status) })
                : c.previous_status !== c.status
                  ? t('templates:sync.statusChange', {
                      from: statusLabel(c.previous_status ?? ''),
                      to: statusLabel(c.status),
                    })
                  : t('templates:sync.contentUpdated')}
            </li>
          ))}
        </ul>
      )}
      {result.skipped.length > 0 && (
        <div class="warning">
          <p>{t('templates:sync.skipped')}</p>
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
