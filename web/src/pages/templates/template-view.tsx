import { action, dashboard } from '../../api/client';
import { Link, navigate } from '../../router';
import { can, useSession } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ConfirmButton, CopyButton, ErrorNote, Page, useAsync } from '../../ui';
import {
  buttonLabel,
  categoryLabel,
  headerTypeLabel,
  languageLabel,
  qualityLabel,
  rejectionLabel,
  StatusBadge,
  statusLabel,
  TemplatePreview,
} from './template-parts';
import { TemplateOptions } from './template-options';

/** A template: pick any translation (approved or not) and see its parts and how it renders. */
export function TemplateView({ id, language }: { id: string; language: string | null }) {
  const template = useAsync(() => dashboard.get('/api/dashboard/templates/{id}', { path: { id } }), [id]);
  const tpl = template.data;
  const writes = can(useSession().user, 'templates');
  if (!tpl) {
    return (
      <Page title={t('templates:view.title')}>
        <ErrorNote error={template.error} />
        {template.loading && <p class="loading">{t('templates:loading')}</p>}
      </Page>
    );
  }
  const shown =
    tpl.translations.find((tr) => tr.language === language) ??
    tpl.translations.find((tr) => tr.language === tpl.default_language) ??
    tpl.translations[0]!;
  const pick = (value: string) =>
    navigate(`/templates/${tpl.id}?language=${encodeURIComponent(value)}`, { replace: true });

  return (
    <Page
      title={tpl.name}
      actions={
        writes && (
          <>
            <Link class="button" href={`/templates/${tpl.id}/edit`}>
              {t('templates:view.edit')}
            </Link>
            <ConfirmButton
              label={t('templates:view.delete')}
              question={t('templates:view.deleteQuestion', { name: tpl.name })}
              confirmLabel={t('templates:view.deleteConfirm')}
              danger
              onConfirm={async () => {
                await action('delete-template', { template_id: tpl.id });
                navigate('/templates');
              }}
            />
          </>
        )
      }
    >
      <p>
        <Link href="/templates">← {t('templates:allTemplates')}</Link>
      </p>
      <dl class="template-facts">
        <dt>{t('templates:view.category')}</dt>
        <dd>
          {categoryLabel(tpl.category)}
          {tpl.category_notice && (
            <p class="hint" role="note">
              {t('templates:view.categoryNotice', {
                category: categoryLabel(tpl.category_notice.category),
                date: formatDateTime(tpl.category_notice.effective_at),
              })}
            </p>
          )}
        </dd>
        <dt>{t('templates:view.id')}</dt>
        <dd>
          <code>{tpl.id}</code> <CopyButton text={tpl.id} label={t('templates:view.copyId')} />
        </dd>
        <dt>{t('templates:view.created')}</dt>
        <dd>{formatDateTime(tpl.created_at)}</dd>
      </dl>
      <div class="field translation-picker">
        <label for="translation-picker">{t('templates:view.translation')}</label>
        <select id="translation-picker" value={shown.language} onChange={(e) => pick(e.currentTarget.value)}>
          {tpl.translations.map((tr) => (
            <option key={tr.language} value={tr.language}>
              {t('templates:view.translationOption', {
                language: `${languageLabel(tr.language)} (${tr.language})`,
                status: statusLabel(tr.status),
              })}
            </option>
          ))}
        </select>
        {shown.language !== tpl.default_language && (
          <small class="hint">
            {t('templates:view.defaultLanguageHint', {
              language: `${languageLabel(tpl.default_language)} (${tpl.default_language})`,
            })}
          </small>
        )}
      </div>
      <div class="template-layout">
        <section aria-labelledby="translation-heading" class="template-parts">
          <h2 id="translation-heading">
            <code>{shown.language}</code> <StatusBadge status={shown.status} />
          </h2>
          {shown.status !== 'APPROVED' && (
            <p class="warning">{t('templates:view.onlyApproved', { status: statusLabel(shown.status) })}</p>
          )}
          {shown.rejection_reason && (
            <p class="warning" data-testid="rejection-reason">
              {t('templates:view.reason', { reason: rejectionLabel(shown.rejection_reason) })}
            </p>
          )}
          <dl class="template-fields">
            <dt>{t('templates:view.review')}</dt>
            <dd data-testid="meta-review">
              {shown.meta_template_id ? (
                <>
                  {t('templates:view.submittedAs')} <code>{shown.meta_template_id}</code>
                </>
              ) : (
                <span class="muted">{t('templates:view.notSubmitted')}</span>
              )}
              {' · '}
              {t('templates:view.quality', {
                quality: shown.quality_score ? qualityLabel(shown.quality_score) : t('templates:view.notRated'),
              })}
            </dd>
            <dt>{t('templates:view.header')}</dt>
            <dd>
              {shown.header_type ? (
                <>
                  {headerTypeLabel(shown.header_type)}: <span class="pre">{shown.header_content}</span>
                </>
              ) : (
                <span class="muted">{t('templates:none')}</span>
              )}
            </dd>
            <dt>{t('templates:view.body')}</dt>
            <dd class="pre" data-testid="template-body">
              {shown.body}
            </dd>
            <dt>{t('templates:view.placeholders')}</dt>
            <dd>
              {shown.placeholders.length > 0 ? (
                shown.placeholders.map((p) => <code key={p}>{`{{${p}}} `}</code>)
              ) : (
                <span class="muted">{t('templates:none')}</span>
              )}
            </dd>
            <dt>{t('templates:view.footer')}</dt>
            <dd>{shown.footer || <span class="muted">{t('templates:none')}</span>}</dd>
            <TemplateOptions translation={shown} />
            <dt>{t('templates:view.buttons')}</dt>
            <dd>
              {shown.buttons.length > 0 ? (
                <ul class="plain-list">
                  {shown.buttons.map((b, i) => (
                    <li key={i}>
                      {b.url || b.phone_number
                        ? t('templates:view.buttonTo', {
                            type: buttonLabel(b.type),
                            text: b.text,
                            target: b.url || b.phone_number,
                          })
                        : t('templates:view.button', { type: buttonLabel(b.type), text: b.text })}
                    </li>
                  ))}
                </ul>
              ) : (
                <span class="muted">{t('templates:none')}</span>
              )}
            </dd>
          </dl>
        </section>
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading">{t('templates:view.preview')}</h2>
          <TemplatePreview
            content={shown}
            label={t('templates:view.previewOf', { language: languageLabel(shown.language) })}
          />
        </section>
      </div>
    </Page>
  );
}
