import { action, dashboard } from '../../api';
import { Link, navigate } from '../../router';
import { can, useSession } from '../../session';
import { ConfirmButton, CopyButton, ErrorNote, Page, useAsync } from '../../ui';
import {
  buttonLabel,
  categoryLabel,
  StatusBadge,
  statusLabel,
  TemplatePreview,
  type TemplateDetail,
} from './template-parts';
import { formatDateTime } from '../../i18n/format';

/** A template: pick any translation (approved or not) and see its parts and how it renders. */
export function TemplateView({ id, language }: { id: string; language: string | null }) {
  const template = useAsync(() => dashboard.get<TemplateDetail>(`templates/${encodeURIComponent(id)}`), [id]);
  const t = template.data;
  const writes = can(useSession().user, 'templates');
  if (!t) {
    return (
      <Page title="Template">
        <ErrorNote error={template.error} />
        {template.loading && <p class="loading">Loading…</p>}
      </Page>
    );
  }
  const shown =
    t.translations.find((tr) => tr.language === language) ??
    t.translations.find((tr) => tr.language === t.default_language) ??
    t.translations[0]!;
  const pick = (value: string) =>
    navigate(`/templates/${t.id}?language=${encodeURIComponent(value)}`, { replace: true });

  return (
    <Page
      title={t.name}
      actions={
        writes && (
          <>
            <Link class="button" href={`/templates/${t.id}/edit`}>
              Edit
            </Link>
            <ConfirmButton
              label="Delete"
              question={`Delete ${t.name} in every language, at WhatsApp too? Campaigns, sequences and flows that send it will fail.`}
              confirmLabel="Delete template"
              danger
              onConfirm={async () => {
                await action('delete-template', { template_id: t.id });
                navigate('/templates');
              }}
            />
          </>
        )
      }
    >
      <p>
        <Link href="/templates">← All templates</Link>
      </p>
      <dl class="template-facts">
        <dt>Category</dt>
        <dd>{categoryLabel(t.category)}</dd>
        <dt>Template id</dt>
        <dd>
          <code>{t.id}</code> <CopyButton text={t.id} label="Copy id" />
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(t.created_at)}</dd>
      </dl>
      <div class="field translation-picker">
        <label for="translation-picker">Translation</label>
        <select id="translation-picker" value={shown.language} onChange={(e) => pick(e.currentTarget.value)}>
          {t.translations.map((tr) => (
            <option key={tr.language} value={tr.language}>
              {tr.language} — {statusLabel(tr.status)}
            </option>
          ))}
        </select>
        {shown.language !== t.default_language && (
          <small class="hint">
            Sends use <code>{t.default_language}</code> unless they choose this language.
          </small>
        )}
      </div>
      <div class="template-layout">
        <section aria-labelledby="translation-heading" class="template-parts">
          <h2 id="translation-heading">
            <code>{shown.language}</code> <StatusBadge status={shown.status} />
          </h2>
          {shown.status !== 'APPROVED' && (
            <p class="warning">Only approved translations can be sent; this one is {statusLabel(shown.status)}.</p>
          )}
          {shown.rejection_reason && (
            <p class="warning" data-testid="rejection-reason">
              Meta’s reason: {statusLabel(shown.rejection_reason)}
            </p>
          )}
          <dl class="template-fields">
            <dt>Meta’s review</dt>
            <dd data-testid="meta-review">
              {shown.meta_template_id ? (
                <>
                  Submitted as <code>{shown.meta_template_id}</code>
                </>
              ) : (
                <span class="muted">Not submitted from Parley</span>
              )}
              {' · '}Quality: {shown.quality_score ? statusLabel(shown.quality_score) : 'not rated yet'}
            </dd>
            <dt>Header</dt>
            <dd>
              {shown.header_type ? (
                <>
                  {statusLabel(shown.header_type)}: <span class="pre">{shown.header_content}</span>
                </>
              ) : (
                <span class="muted">None</span>
              )}
            </dd>
            <dt>Body</dt>
            <dd class="pre" data-testid="template-body">
              {shown.body}
            </dd>
            <dt>Placeholders</dt>
            <dd>
              {shown.placeholders.length > 0 ? (
                shown.placeholders.map((p) => <code key={p}>{`{{${p}}} `}</code>)
              ) : (
                <span class="muted">None</span>
              )}
            </dd>
            <dt>Footer</dt>
            <dd>{shown.footer || <span class="muted">None</span>}</dd>
            <dt>Buttons</dt>
            <dd>
              {shown.buttons.length > 0 ? (
                <ul class="plain-list">
                  {shown.buttons.map((b, i) => (
                    <li key={i}>
                      {buttonLabel(b.type)}: “{b.text}”{b.url && <> → {b.url}</>}
                      {b.phone_number && <> → {b.phone_number}</>}
                    </li>
                  ))}
                </ul>
              ) : (
                <span class="muted">None</span>
              )}
            </dd>
          </dl>
        </section>
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          <TemplatePreview content={shown} label={`Preview of the ${shown.language} translation`} />
        </section>
      </div>
    </Page>
  );
}
