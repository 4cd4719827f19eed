import { useState } from 'preact/hooks';
import { action } from '../../api/client';
import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { Link } from '../../router';
import { can, useSession } from '../../session';
import { ErrorNote, Page, Table, useAsync, useSubmit } from '../../ui';
import { flowCategoryLabel, FlowStatusBadge } from './flow-words';

/** WhatsApp Flows: the account's Flows with their status, "Sync from WhatsApp" and "New Flow". */
export function WhatsappFlowsList() {
  const writes = can(useSession().user, 'templates');
  const list = useAsync(() => action('list-whatsapp-flows', {}), []);
  const [synced, setSynced] = useState<number | null>(null);
  const sync = useSubmit(async () => {
    setSynced(null);
    setSynced((await action('sync-whatsapp-flows', {})).length);
    list.reload();
  });
  return (
    <Page
      title={t('whatsapp-flows:list.title')}
      actions={
        writes && (
          <>
            <button type="button" onClick={() => void sync.run()} disabled={sync.busy}>
              {sync.busy ? t('whatsapp-flows:list.syncing') : t('whatsapp-flows:list.sync')}
            </button>
            <Link class="button primary" href="/whatsapp-flows/new">
              {t('whatsapp-flows:list.new')}
            </Link>
          </>
        )
      }
    >
      <p class="hint">{t('whatsapp-flows:list.intro')}</p>
      <div role="status" aria-live="polite">
        {synced !== null && <p class="notice">{t('whatsapp-flows:list.synced', { count: synced })}</p>}
      </div>
      <ErrorNote error={sync.error ?? list.error} />
      {list.data?.length === 0 && <p class="muted">{t('whatsapp-flows:list.empty')}</p>}
      {list.data && list.data.length > 0 && (
        <Table
          caption={t('whatsapp-flows:list.caption')}
          columns={[
            t('whatsapp-flows:list.name'),
            t('whatsapp-flows:list.status'),
            t('whatsapp-flows:list.categories'),
            t('whatsapp-flows:list.updated'),
            t('whatsapp-flows:list.answers'),
          ]}
        >
          {list.data.map((flow) => (
            <tr key={flow.id}>
              <th scope="row">
                <Link href={`/whatsapp-flows/${flow.id}`}>{flow.name}</Link>
              </th>
              <td>
                <FlowStatusBadge status={flow.status} />
              </td>
              <td>{flow.categories.map(flowCategoryLabel).join(', ')}</td>
              <td>{formatDateTime(flow.updated_at)}</td>
              <td>
                <Link
                  href={`/whatsapp-flows/${flow.id}/answers`}
                  aria-label={t('whatsapp-flows:list.answersOf', { name: flow.name })}
                >
                  {t('whatsapp-flows:list.answers')}
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
