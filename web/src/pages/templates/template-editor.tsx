import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { dashboard } from '../../api/client';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, TextField, useSubmit } from '../../ui';
import {
  ALL_BUTTON_TYPES,
  CATEGORIES,
  categoryLabel,
  HEADER_TYPES,
  neededExamples,
  oneOf,
  type TranslationDetail,
} from './template-parts';
import { can, useSession } from '../../session';
import { NotInYourRole } from '../../roles';
import { TranslationFields, type TranslationDraft } from './translation-fields';
import { t } from '../../i18n/i18n';

let nextKey = 1;
/** A template name that follows Meta's rule, shown under the name field. */
const NAME_EXAMPLE = 'order_update';

function emptyDraft(): TranslationDraft {
  return {
    key: nextKey++,
    saved: false,
    language: '',
    status: 'PENDING',
    header_type: '',
    header_content: '',
    body: '',
    footer: '',
    buttons: [],
    samples: {},
  };
}

function draftOf(tr: TranslationDetail): TranslationDraft {
  return {
    ...emptyDraft(),
    saved: true,
    language: tr.language,
    status: tr.status,
    header_type: tr.header_type ?? '',
    header_content: tr.header_content,
    body: tr.body,
    footer: tr.footer,
    buttons: tr.buttons.map((b) => ({
      type: b.type,
      text: b.text,
      url: b.url ?? '',
      phone_number: b.phone_number ?? '',
    })),
    samples: tr.examples,
  };
}

/** The API's translation input: empty optional parts are left out, as Meta's format has them. */
function inputOf(d: TranslationDraft) {
  const translation = {
    language: d.language.trim(),
    body: d.body,
    header_type: d.header_type ? oneOf(HEADER_TYPES, d.header_type) : null,
    header_content: d.header_type ? d.header_content : null,
    footer: d.footer || null,
    buttons: d.buttons.map((b) => ({
      type: oneOf(ALL_BUTTON_TYPES, b.type),
      text: b.text,
      ...(b.type === 'URL' && { url: b.url }),
      ...(b.type === 'PHONE_NUMBER' && { phone_number: b.phone_number }),
    })),
  };
  // Samples of variables the translation no longer has (an edited body) are not sent.
  const examples = Object.fromEntries(
    neededExamples(translation).flatMap((v) => (d.samples[v]?.trim() ? [[v, d.samples[v]]] : [])),
  );
  return { ...translation, examples };
}

/** New template (no id) or edit one, for a role that writes templates. */
export function TemplateEditor({ id }: { id?: string }) {
  const { user } = useSession();
  if (!can(user, 'templates')) return <NotInYourRole what={t('templates:editor.notInRole')} />;
  return <Editor id={id} />;
}

/** Name, category and each translation, with a live preview. */
function Editor({ id }: { id?: string }) {
  const [name, setName] = useState('');
  const [category, setCategory] = useState<string>('UTILITY');
  const [drafts, setDrafts] = useState<TranslationDraft[]>(() => (id ? [] : [emptyDraft()]));
  const [loadError, setLoadError] = useState<unknown>(null);
  const [loaded, setLoaded] = useState(!id);
  const generation = useRef(0);

  useEffect(() => {
    if (!id) return;
    const mine = ++generation.current;
    dashboard.get('/api/dashboard/templates/{id}', { path: { id } }).then(
      (template) => {
        if (mine !== generation.current) return;
        setName(template.name);
        setCategory(template.category);
        setDrafts(template.translations.map(draftOf));
        setLoaded(true);
      },
      (error: unknown) => mine === generation.current && setLoadError(error),
    );
  }, [id]);

  const save = useSubmit(async () => {
    const translations = drafts.map(inputOf);
    const body = { category: oneOf(CATEGORIES, category), translations };
    const saved = id
      ? await dashboard.put('/api/dashboard/templates/{id}', { path: { id }, body })
      : await dashboard.post('/api/dashboard/templates', { body: { ...body, name: name.trim() } });
    navigate(`/templates/${saved.id}`);
  });
  const error = save.error instanceof ApiError ? save.error : null;
  const update = (key: number, draft: TranslationDraft) =>
    setDrafts((all) => all.map((d) => (d.key === key ? draft : d)));
  const title = id
    ? t('templates:editor.editTitle', { name: name || t('templates:editor.template') })
    : t('templates:editor.newTitle');

  if (!loaded) {
    return (
      <Page title={title}>
        <ErrorNote error={loadError} />
        {!loadError && <p class="loading">{t('templates:loading')}</p>}
      </Page>
    );
  }
  return (
    <Page title={title}>
      <p>
        <Link href={id ? `/templates/${id}` : '/templates'}>
          ← {id ? t('templates:editor.backToTemplate') : t('templates:allTemplates')}
        </Link>
      </p>
      <p class="hint">{id ? t('templates:editor.reviewOnSave') : t('templates:editor.reviewOnCreate')}</p>
      <form onSubmit={save.onSubmit} aria-label={title} noValidate>
        <div class="field-row">
          {id ? (
            <div class="field">
              <span class="field-label">{t('templates:editor.name')}</span>
              <code>{name}</code>
            </div>
          ) : (
            <TextField
              label={t('templates:editor.name')}
              value={name}
              {...save.bind('name', setName)}
              required
              maxLength={512}
              pattern="[a-z0-9_]+"
              hint={
                <>
                  {t('templates:editor.nameHint')} <code>{NAME_EXAMPLE}</code>
                </>
              }
            />
          )}
          <div class="field">
            <label for="template-category">{t('templates:editor.category')}</label>
            <select
              id="template-category"
              value={category}
              onChange={(e) => {
                setCategory(e.currentTarget.value);
                save.edited('category');
              }}
            >
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryLabel(c)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {drafts.map((draft, index) => (
          <TranslationFields
            key={draft.key}
            index={index}
            draft={draft}
            onChange={(d, fields) => {
              update(draft.key, d);
              save.edited(...fields.map((field) => `translations.${index}.${field}`));
            }}
            onRemove={
              draft.saved || drafts.length === 1
                ? undefined
                : () => {
                    setDrafts((all) => all.filter((d) => d.key !== draft.key));
                    save.edited('translations'); // the ones after it move up: their problems no longer fit
                  }
            }
            error={error}
          />
        ))}
        <p>
          <button type="button" onClick={() => setDrafts((all) => [...all, emptyDraft()])}>
            {t('templates:editor.addTranslation')}
          </button>
        </p>
        <ErrorNote error={save.error} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={save.busy}>
            {id ? t('templates:editor.saveChanges') : t('templates:editor.create')}
          </button>
        </div>
      </form>
    </Page>
  );
}
