import { action } from '../api/client';
import { ErrorNote, Page, Table, useAsync } from '../ui';
import { Rich } from '../i18n/rich';
import { t } from '../i18n/i18n';
import { SettingsNav } from './settings-nav';
import { formatDateTime } from '../i18n/format';
import { META_EVENT_LOG_FIELDS } from '../../../src/whatsapp/meta-event-log-fields';

/** Meta's webhook fields the catalog names for people (settings:events.kinds.*). */
const KINDS = ['errors', ...META_EVENT_LOG_FIELDS] as const;

/** What one of Meta's webhook fields is, for people; a field Parley does not know yet by its own name. */
function kindName(kind: string): string {
  const known = KINDS.find((name) => name === kind);
  return known ? t(`settings:events.kinds.${known}`) : kind;
}

/** Settings → WhatsApp events: the workspace event log (list-workspace-events), newest first. */
export function WorkspaceEvents() {
  const events = useAsync(() => action('list-workspace-events', { limit: 100 }), []);
  return (
    <Page title={t('settings:events.title')}>
      <SettingsNav />
      <p>
        <Rich
          text={t('settings:events.intro')}
          parts={{
            link: (words) => (
              <a href="/api/docs" target="_blank" rel="noopener">
                {words}
              </a>
            ),
          }}
        />
      </p>
      <ErrorNote error={events.error} />
      {events.data?.length === 0 && <p role="status">{t('settings:events.none')}</p>}
      {!!events.data?.length && (
        <Table
          caption={t('settings:events.caption')}
          columns={[
            t('settings:events.received'),
            t('settings:events.kind'),
            t('settings:events.said'),
            t('settings:events.means'),
          ]}
        >
          {events.data.map((event) => (
            <tr key={event.id}>
              <td>{formatDateTime(event.created_at)}</td>
              <td>{kindName(event.kind)}</td>
              <td>{event.summary}</td>
              <td>{event.reason ?? '—'}</td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
