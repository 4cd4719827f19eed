import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { action } from '../../api/client';
import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { Link, navigate } from '../../router';
import { can, useSession } from '../../session';
import { ConfirmButton, ErrorNote, Page, Table, useAsync, useSubmit } from '../../ui';
import { FlowJsonEditor } from './flow-json-editor';
import { FlowPreview } from './flow-preview';
import { flowCategoryLabel, FlowStatusBadge, type WhatsappFlow } from './flow-words';

type Catalog = typeof import('../../locales/en/whatsapp-flows.json');

/**
 * One WhatsApp Flow: its status and Meta's preview link, its Flow JSON (edited while a draft, Meta's
 * errors in place), its screens drawn, the changes of its life (publish, deprecate, delete a draft) for
 * those who manage templates, and what Meta's webhooks said of it.
 */
export function WhatsappFlowPage({ id }: { id: string }) {
  const flow = useAsync(() => action('get-whatsapp-flow', { whatsapp_flow_id: id }), [id]);
  if (!flow.data) {
    return (
      <Page title={t('whatsapp-flows:list.title')}>
        <ErrorNote error={flow.error} />
      </Page>
    );
  }
  return <FlowDetail flow={flow.data} onChange={flow.reload} />;
}

function FlowDetail({ flow, onChange }: { flow: WhatsappFlow; onChange: () => void }) {
  const writes = can(useSession().user, 'templates');
  const draft = flow.status === 'DRAFT';
  const [json, setJson] = useState(flow.flow_json ?? '');
  const [saved, setSaved] = useState(false);
  useEffect(() => setJson(flow.flow_json ?? ''), [flow.flow_json]);
  const save = useSubmit(async () => {
    setSaved(false);
    try {
      await action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: json });
      setSaved(true);
    } finally {
      // Meta keeps the document even with errors: the page shows them where they are.
      onChange();
    }
  });
  const change = (name: 'publish-whatsapp-flow' | 'deprecate-whatsapp-flow') => async () => {
    await action(name, { whatsapp_flow_id: flow.id });
    onChange();
  };
  // Meta's errors are shown in the box, by line: the note repeats only what is not about the document.
  const shownError = save.error instanceof ApiError ? save.error.without(['flow_json']) : save.error;
  return (
    <Page
      title={flow.name}
      actions={
        <>
          {flow.preview_url && (
            <a class="button" href={flow.preview_url} target="_blank" rel="noopener noreferrer">
              {t('whatsapp-flows:page.previewLink')}
            </a>
          )}
          <Link class="button" href={`/whatsapp-flows/${flow.id}/answers`}>
            {t('whatsapp-flows:page.answers')}
          </Link>
          {writes && draft && (
            <ConfirmButton
              label={t('whatsapp-flows:page.publish')}
              question={t('whatsapp-flows:page.publishQuestion')}
              confirmLabel={t('whatsapp-flows:page.publish')}
              onConfirm={change('publish-whatsapp-flow')}
            />
          )}
          {writes && flow.status === 'PUBLISHED' && (
            <ConfirmButton
              label={t('whatsapp-flows:page.deprecate')}
              question={t('whatsapp-flows:page.deprecateQuestion')}
              confirmLabel={t('whatsapp-flows:page.deprecate')}
              onConfirm={change('deprecate-whatsapp-flow')}
              danger
            />
          )}
          {writes && draft && (
            <ConfirmButton
              label={t('whatsapp-flows:page.delete')}
              question={t('whatsapp-flows:page.deleteQuestion')}
              confirmLabel={t('whatsapp-flows:page.delete')}
              onConfirm={async () => {
                await action('delete-whatsapp-flow', { whatsapp_flow_id: flow.id });
                navigate('/whatsapp-flows');
              }}
              danger
            />
          )}
        </>
      }
    >
      <p>
        <Link href="/whatsapp-flows">{t('whatsapp-flows:page.back')}</Link>
      </p>
      <dl class="panel-fields">
        <dt>{t('whatsapp-flows:page.status')}</dt>
        <dd>
          <FlowStatusBadge status={flow.status} />
        </dd>
        <dt>{t('whatsapp-flows:page.categories')}</dt>
        <dd>{flow.categories.map(flowCategoryLabel).join(', ')}</dd>
        <dt>{t('whatsapp-flows:page.metaId')}</dt>
        <dd>
          <code>{flow.meta_flow_id}</code>
        </dd>
      </dl>
      <div class="flow-workbench">
        <section aria-labelledby="flow-json-title" class="panel">
          <h2 id="flow-json-title">
            <label for="flow-json">{t('whatsapp-flows:editor.label')}</label>
          </h2>
          {flow.flow_json === null && !writes ? (
            <p class="muted">{t('whatsapp-flows:editor.none')}</p>
          ) : (
            <form onSubmit={save.onSubmit} aria-labelledby="flow-json-title" noValidate>
              <FlowJsonEditor
                value={json}
                onValue={(value) => {
                  setJson(value);
                  setSaved(false);
                  save.edited('flow_json');
                }}
                errors={flow.validation_errors}
                readOnly={!writes || !draft}
                hint={draft ? t('whatsapp-flows:editor.hint') : t('whatsapp-flows:page.notEditable')}
              />
              <div role="status" aria-live="polite">
                {saved && <p class="notice">{t('whatsapp-flows:editor.saved')}</p>}
              </div>
              <ErrorNote error={shownError} labels={{ flow_json: t('whatsapp-flows:editor.label') }} />
              {writes && draft && (
                <button type="submit" class="primary" disabled={save.busy || json.trim() === ''}>
                  {save.busy ? t('whatsapp-flows:editor.saving') : t('whatsapp-flows:editor.save')}
                </button>
              )}
            </form>
          )}
        </section>
        <section aria-labelledby="flow-screens-title" class="panel">
          <h2 id="flow-screens-title">{t('whatsapp-flows:preview.title')}</h2>
          <p class="hint">{t('whatsapp-flows:preview.intro')}</p>
          <FlowPreview flowJson={json} />
        </section>
      </div>
      <FlowAlerts flowId={flow.id} status={flow.status} />
    </Page>
  );
}

/** What Meta's Flows webhooks said of the Flow, newest first (reloaded when its status changes). */
function FlowAlerts({ flowId, status }: { flowId: string; status: string }) {
  const alerts = useAsync(() => action('list-whatsapp-flow-alerts', { whatsapp_flow_id: flowId }), [flowId, status]);
  return (
    <section aria-labelledby="flow-alerts-title" class="panel">
      <h2 id="flow-alerts-title">{t('whatsapp-flows:alerts.title')}</h2>
      <ErrorNote error={alerts.error} />
      {alerts.data?.length === 0 && <p class="muted">{t('whatsapp-flows:alerts.empty')}</p>}
      {alerts.data && alerts.data.length > 0 && (
        <Table
          caption={t('whatsapp-flows:alerts.caption')}
          columns={[
            t('whatsapp-flows:alerts.when'),
            t('whatsapp-flows:alerts.event'),
            t('whatsapp-flows:alerts.state'),
            t('whatsapp-flows:alerts.message'),
          ]}
        >
          {alerts.data.map((alert) => (
            <tr key={alert.id}>
              <td>{formatDateTime(alert.received_at)}</td>
              <td>
                {t(`whatsapp-flows:alerts.events.${alert.event as keyof Catalog['alerts']['events']}`, {
                  defaultValue: alert.event,
                })}
              </td>
              <td>
                {alert.alert_state &&
                  t(`whatsapp-flows:alerts.states.${alert.alert_state as keyof Catalog['alerts']['states']}`, {
                    defaultValue: alert.alert_state,
                  })}
              </td>
              <td>{alert.message}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
