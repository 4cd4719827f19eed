import { useState } from 'preact/hooks';
import { action } from '../../api/client';
import { t } from '../../i18n/i18n';
import { ErrorNote, TextField, fieldErrors, useAsync, useSubmit } from '../../ui';

/** The screen ids of a Flow JSON document, first first (none when Parley does not have it). */
function screenIds(flowJson: string | null): string[] {
  if (flowJson === null) return [];
  try {
    const screens = (JSON.parse(flowJson) as { screens?: { id?: unknown }[] }).screens ?? [];
    return screens.flatMap((screen) => (typeof screen.id === 'string' ? [screen.id] : []));
  } catch {
    return [];
  }
}

/**
 * Sends a published WhatsApp Flow (Meta's form) to the contact: the message text around its button, and
 * the screen it opens on (send-whatsapp-flow; inside the customer service window, as every interactive message).
 */
export function FlowForm({ contactId, onSent }: { contactId: string; onSent: () => void }) {
  const flows = useAsync(() => action('list-whatsapp-flows', { status: 'PUBLISHED' }), []);
  const [flowId, setFlowId] = useState('');
  const [fields, setFields] = useState({ header: '', body: '', footer: '', cta: '', screen: '' });
  const flow = flows.data?.find((candidate) => candidate.id === flowId);
  const screens = screenIds(flow?.flow_json ?? null);
  const send = useSubmit(async () => {
    const optional = (value: string) => (value.trim() ? value : undefined);
    await action('send-whatsapp-flow', {
      contact_id: contactId,
      whatsapp_flow_id: flowId,
      body: fields.body,
      cta: fields.cta,
      header: optional(fields.header),
      footer: optional(fields.footer),
      screen: optional(fields.screen),
    });
    onSent();
  });
  const labels = {
    whatsapp_flow_id: t('inbox:flow.flow'),
    header: t('inbox:flow.header'),
    body: t('inbox:flow.body'),
    footer: t('inbox:flow.footer'),
    cta: t('inbox:flow.cta'),
    screen: t('inbox:flow.screen'),
  };
  const errors = fieldErrors(send.error, labels);
  const text = (field: 'header' | 'body' | 'footer' | 'cta', maxLength: number, required = false) => (
    <TextField
      label={labels[field]}
      value={fields[field]}
      maxLength={maxLength}
      required={required}
      {...send.bind(field, (value) => setFields({ ...fields, [field]: value }))}
      error={errors.field(field)}
    />
  );
  return (
    <form class="template-form" onSubmit={send.onSubmit} aria-label={t('inbox:flow.form')} noValidate>
      <ErrorNote error={flows.error} />
      <div class="field">
        <label for="reply-flow">{labels.whatsapp_flow_id}</label>
        <select
          id="reply-flow"
          value={flowId}
          required
          onChange={(e) => {
            setFlowId(e.currentTarget.value);
            setFields({ ...fields, screen: '' });
            send.edited('whatsapp_flow_id', 'screen');
          }}
        >
          <option value="">{flows.loading ? t('inbox:loading') : t('inbox:flow.choose')}</option>
          {(flows.data ?? []).map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
        {flows.data?.length === 0 && <small class="hint">{t('inbox:flow.none')}</small>}
      </div>
      {text('header', 60)}
      {text('body', 1024, true)}
      {text('footer', 60)}
      {text('cta', 30, true)}
      {screens.length > 0 && (
        <div class="field">
          <label for="reply-flow-screen">{labels.screen}</label>
          <select
            id="reply-flow-screen"
            value={fields.screen}
            onChange={(e) => setFields({ ...fields, screen: e.currentTarget.value })}
          >
            {screens.map((screen, i) => (
              <option key={screen} value={i === 0 ? '' : screen}>
                {screen}
              </option>
            ))}
          </select>
        </div>
      )}
      <ErrorNote error={errors.note} labels={labels} />
      <button type="submit" class="primary" disabled={send.busy || !flow}>
        {t('inbox:flow.send')}
      </button>
    </form>
  );
}
