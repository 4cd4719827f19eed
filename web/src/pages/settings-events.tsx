import type { components } from '../../../packages/client/src/schema';
import { action } from '../api';
import { ErrorNote, Page, Table, useAsync } from '../ui';
import { SettingsNav } from './settings-nav';
import { formatDateTime } from '../i18n/format';

type WorkspaceEvent = components['schemas']['WorkspaceEvent'];

/** What each of Meta's webhook fields is, for people. */
const KINDS: Record<string, string> = {
  errors: 'Webhook error',
  account_update: 'Account update',
  account_alerts: 'Account alert',
  account_review_update: 'Account review',
  business_capability_update: 'Messaging limits',
  phone_number_quality_update: 'Number quality',
  phone_number_name_update: 'Display name',
  security: 'Security',
};

/** Settings → WhatsApp events: the workspace event log (list-workspace-events), newest first. */
export function WorkspaceEvents() {
  const events = useAsync(() => action<WorkspaceEvent[]>('list-workspace-events', { limit: 100 }), []);
  return (
    <Page title="WhatsApp events">
      <SettingsNav />
      <p>
        What Meta reported about this workspace's WhatsApp account and number: bans and policy violations, reviews,
        quality and messaging-limit changes, alerts, and errors such as rate limits. The newest 100 are shown;
        integrations can read the same log through the{' '}
        <a href="/api/docs" target="_blank" rel="noopener">
          API
        </a>
        .
      </p>
      <ErrorNote error={events.error} />
      {events.data?.length === 0 && <p role="status">Meta has reported nothing for this workspace yet.</p>}
      {!!events.data?.length && (
        <Table caption="WhatsApp events" columns={['Received', 'Kind', 'What Meta said', 'What it means']}>
          {events.data.map((event) => (
            <tr key={event.id}>
              <td>{formatDateTime(event.created_at)}</td>
              <td>{KINDS[event.kind] ?? event.kind}</td>
              <td>{event.summary}</td>
              <td>{event.reason ?? '—'}</td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
