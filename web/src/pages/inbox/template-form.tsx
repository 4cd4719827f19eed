import { useState } from 'preact/hooks';
import { formProblems } from '../../api';
import { action } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { t } from '../../i18n/i18n';
import { ErrorNote, TextField, fieldErrors, useAsync, useSubmit } from '../../ui';

type Template = PublicSchema<'Template'>;

/** Where a template goes: a contact (the inbox and the contact page) or a WhatsApp group. */
export type Recipient = { contact_id: string } | { group_id: string };

const MEDIA_HEADERS = ['IMAGE', 'VIDEO', 'DOCUMENT'];
/** A template's media header kind (image, video, document), or null for none or a text header. */
const mediaHeader = (template: Template | undefined) =>
  template?.header_type && MEDIA_HEADERS.includes(template.header_type)
    ? (template.header_type.toLowerCase() as 'image' | 'video' | 'document')
    : null;

/** The form's field for a template variable, as its problems name it. */
const variableField = (id: string) => `variables.${id}`;

/**
 * Picks an approved template, asks for each of its variables and sends it. A contact's variables may
 * use `{{contact.…}}` placeholders (filled for the contact); a group's are sent as written.
 */
export function TemplateForm({ to, onSent }: { to: Recipient; onSent: () => void }) {
  const templates = useAsync(() => action('list-templates', { status: 'APPROVED' }), []);
  const approved = (templates.data ?? []).filter((template) => template.status === 'APPROVED');
  const [templateId, setTemplateId] = useState('');
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [headerUrl, setHeaderUrl] = useState('');
  const template = approved.find((candidate) => candidate.id === templateId);
  const header = mediaHeader(template);
  const preview = template?.placeholders.reduce(
    (body, n) => body.replace(new RegExp(`\\{\\{\\s*0*${n}\\s*\\}\\}`, 'g'), variables[n] || `{{${n}}}`),
    template.body,
  );
  const send = useSubmit(async () => {
    if (!template) return;
    checkFilled(template, variables, header ? headerUrl : null);
    await sendTemplate(to, {
      template_id: template.id,
      language: template.language,
      // Keyed by the ids get-template lists: body, text header and button variables alike.
      variables: Object.fromEntries(template.variables.map((v) => [v.id, variables[v.id] ?? ''])),
      ...(header && { header_media_url: headerUrl }),
    });
    onSent();
  });
  const variableLabel = (v: Template['variables'][number]) => t('inbox:template.variable', { label: v.label });
  const headerLabel = header && t(`inbox:template.headerUrl.${header}`);
  const labels: Record<string, string> = {
    template_id: t('inbox:template.template'),
    ...(headerLabel && { header_media_url: headerLabel }),
    ...Object.fromEntries((template?.variables ?? []).map((v) => [variableField(v.id), variableLabel(v)])),
  };
  const errors = fieldErrors(send.error, labels);

  return (
    <form class="template-form" onSubmit={send.onSubmit} aria-label={t('inbox:template.form')} noValidate>
      <ErrorNote error={templates.error} />
      <div class="field">
        <label for="reply-template">{t('inbox:template.template')}</label>
        <select
          id="reply-template"
          value={templateId}
          required
          onChange={(e) => {
            setTemplateId(e.currentTarget.value);
            setVariables({});
            send.edited('template_id', 'variables', 'header_media_url');
          }}
        >
          <option value="">{templates.loading ? t('inbox:loading') : t('inbox:template.choose')}</option>
          {approved.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name} ({choice.language})
            </option>
          ))}
        </select>
        {templates.data && approved.length === 0 && <small class="hint">{t('inbox:template.none')}</small>}
      </div>
      {template?.variables.map((v, i) => (
        <TextField
          key={v.id}
          label={variableLabel(v)}
          required
          maxLength={1024}
          value={variables[v.id] ?? ''}
          onValue={(value) => {
            setVariables({ ...variables, [v.id]: value });
            send.edited(variableField(v.id), 'variables');
          }}
          error={errors.field(variableField(v.id))}
          hint={
            i === 0 && 'contact_id' in to
              ? t('inbox:template.variableHint', { placeholder: '{{contact.first_name}}' })
              : undefined
          }
        />
      ))}
      {headerLabel && (
        <TextField
          label={headerLabel}
          type="url"
          required
          value={headerUrl}
          onValue={(value) => {
            setHeaderUrl(value);
            send.edited('header_media_url');
          }}
          error={errors.field('header_media_url')}
          hint={t('inbox:template.headerUrlHint')}
        />
      )}
      {preview && (
        <div class="template-preview">
          <span class="muted">{t('inbox:template.preview')}</span>
          <p>{preview}</p>
        </div>
      )}
      <ErrorNote error={errors.note} labels={labels} />
      <button type="submit" class="primary" disabled={send.busy || !template}>
        {t('inbox:template.send')}
      </button>
    </form>
  );
}

/** Refuses a blank variable or header link before sending, each named beside its field. */
function checkFilled(template: Template, variables: Record<string, string>, headerUrl: string | null): void {
  const blank = template.variables.filter((v) => !variables[v.id]?.trim()).map((v) => variableField(v.id));
  if (headerUrl !== null && !headerUrl.trim()) blank.push('header_media_url');
  if (blank.length > 0) throw formProblems(blank.map((field) => ({ field, message: t('errors:field.required') })));
}

/** What the form sends, to a contact or a group alike. */
interface TemplateMessage {
  template_id: string;
  language: string;
  variables: Record<string, string>;
  header_media_url?: string;
}

/** Sends the template to the contact (send-template-message) or the group (send-group-template). */
async function sendTemplate(to: Recipient, message: TemplateMessage): Promise<void> {
  if ('group_id' in to) await action('send-group-template', { ...to, ...message });
  else await action('send-template-message', { ...to, ...message });
}
