import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, type FieldLabels } from '../../api';
import { dashboard } from '../../api/client';
import { Link, navigate } from '../../router';
import { ErrorNote, fieldErrors, Page, TextField, useSubmit } from '../../ui';
import {
  ALL_BUTTON_TYPES,
  CATEGORIES,
  categoryLabel,
  HEADER_TYPES,
  LIBRARY_CATEGORIES,
  neededExamples,
  oneOf,
  type TranslationDetail,
} from './template-parts';
import {
  authenticationDraftOf,
  authenticationInput,
  authenticationLabels,
  emptyAuthentication,
  under,
} from './authentication-fields';
import { emptyLibrary, LibraryFields, libraryInput, libraryLabels, type LibraryDraft } from './library-fields';
import { can, useSession } from '../../session';
import { NotInYourRole } from '../../roles';
import { emptyButton, TranslationFields, type ButtonDraft, type TranslationDraft } from './translation-fields';
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
    authentication: emptyAuthentication(),
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
      ...emptyButton(),
      type: b.type,
      text: b.text,
      url: b.url ?? '',
      phone_number: b.phone_number ?? '',
      flow_id: b.flow_id ?? '',
      flow_action: b.flow_action === 'data_exchange' ? 'data_exchange' : 'navigate',
      navigate_screen: b.navigate_screen ?? '',
    })),
    samples: tr.examples,
    authentication: authenticationDraftOf(tr),
  };
}

const isAuthentication = (category: string) => category === 'AUTHENTICATION';

/** The API's translation input: empty optional parts are left out, as Meta's format has them. */
function inputOf(d: TranslationDraft, category: string) {
  const language = d.language.trim();
  if (isAuthentication(category)) return { language, ...authenticationInput(d.authentication) };
  const translation = {
    language,
    body: d.body,
    header_type: d.header_type ? oneOf(HEADER_TYPES, d.header_type) : null,
    header_content: d.header_type ? d.header_content : null,
    footer: d.footer || null,
    buttons: d.buttons.map((b) => ({
      type: oneOf(ALL_BUTTON_TYPES, b.type),
      text: b.text,
      ...(b.type === 'URL' && { url: b.url }),
      ...(b.type === 'PHONE_NUMBER' && { phone_number: b.phone_number }),
      ...(b.type === 'FLOW' && flowButtonInput(b)),
    })),
  };
  // Samples of variables the translation no longer has (an edited body) are not sent.
  const examples = Object.fromEntries(
    neededExamples(translation).flatMap((v) => (d.samples[v]?.trim() ? [[v, d.samples[v]]] : [])),
  );
  return { ...translation, examples };
}

/** A FLOW button as the API takes it: its Flow (when chosen), how it opens, the screen to open on. */
function flowButtonInput(b: ButtonDraft) {
  return {
    ...(b.flow_id && { flow_id: b.flow_id }),
    flow_action: b.flow_action,
    ...(b.flow_action === 'navigate' && b.navigate_screen.trim() && { navigate_screen: b.navigate_screen.trim() }),
  };
}

/** A new template is written here, or made by Meta from a template of its Template Library. */
type Source = 'own' | 'library';

/** Every labelled input by the API field it fills, so the server's problems name them by their labels. */
function formLabels(source: Source, category: string, drafts: TranslationDraft[], library: LibraryDraft): FieldLabels {
  const common = { name: t('templates:editor.name'), category: t('templates:editor.category') };
  if (source === 'library') return { ...common, ...libraryLabels(library, category) };
  if (!isAuthentication(category)) return common;
  return drafts.reduce<FieldLabels>(
    (all, d, i) => ({ ...all, ...under(`translations.${i}`, authenticationLabels(d.authentication)) }),
    common,
  );
}

/** The request's fields that the source and the category decide: their problems go when either changes. */
const SHAPED_FIELDS = [
  'category',
  'translations',
  'language',
  'library_template_name',
  'library_template_button_inputs',
  'library_template_body_inputs',
];

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
  const [source, setSource] = useState<Source>('own');
  const [library, setLibrary] = useState<LibraryDraft>(emptyLibrary);
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
    const saved = await submit();
    navigate(`/templates/${saved.id}`);
  });
  /** Creates (written here or from the library) or saves the edit, through the dashboard's one template endpoint. */
  function submit() {
    const chosen = oneOf(CATEGORIES, category);
    if (source === 'library') {
      const body = { name: name.trim(), category: chosen, ...libraryInput(library, category) };
      return dashboard.post('/api/dashboard/templates', { body });
    }
    const body = { category: chosen, translations: drafts.map((d) => inputOf(d, category)) };
    return id
      ? dashboard.put('/api/dashboard/templates/{id}', { path: { id }, body })
      : dashboard.post('/api/dashboard/templates', { body: { ...body, name: name.trim() } });
  }
  const labels = formLabels(source, category, drafts, library);
  const problems = fieldErrors(save.error, labels);
  const error = save.error instanceof ApiError ? save.error : null;
  const update = (key: number, draft: TranslationDraft) =>
    setDrafts((all) => all.map((d) => (d.key === key ? draft : d)));
  const title = id
    ? t('templates:editor.editTitle', { name: name || t('templates:editor.template') })
    : t('templates:editor.newTitle');
  const chooseSource = (chosen: Source) => {
    setSource(chosen);
    // Meta's library has utility and authentication templates only.
    if (chosen === 'library' && !LIBRARY_CATEGORIES.some((c) => c === category)) setCategory('UTILITY');
    save.edited(...SHAPED_FIELDS);
  };
  const hint = id ? 'reviewOnSave' : source === 'library' ? 'reviewOnLibrary' : 'reviewOnCreate';

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
      <p class="hint">{t(`templates:editor.${hint}`)}</p>
      <form onSubmit={save.onSubmit} aria-label={title} noValidate>
        {!id && <SourceChoice source={source} onSource={chooseSource} />}
        <div class="field-row">
          {id ? (
            <div class="field">
              <span class="field-label">{labels.name}</span>
              <code>{name}</code>
            </div>
          ) : (
            <TextField
              label={labels.name!}
              value={name}
              {...save.bind('name', setName)}
              error={problems.field('name')}
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
          <CategoryField
            label={labels.category!}
            choices={source === 'library' ? LIBRARY_CATEGORIES : CATEGORIES}
            value={category}
            onValue={(value) => {
              setCategory(value);
              save.edited(...SHAPED_FIELDS);
            }}
            error={problems.field('category')}
          />
        </div>
        {source === 'library' ? (
          <LibraryFields
            draft={library}
            category={category}
            onChange={(draft, fields) => {
              setLibrary(draft);
              save.edited(...fields);
            }}
            fieldMessage={problems.field}
          />
        ) : (
          <>
            {drafts.map((draft, index) => (
              <TranslationFields
                key={draft.key}
                index={index}
                draft={draft}
                authentication={isAuthentication(category)}
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
                labelledMessage={problems.field}
              />
            ))}
            <p>
              <button type="button" onClick={() => setDrafts((all) => [...all, emptyDraft()])}>
                {t('templates:editor.addTranslation')}
              </button>
            </p>
          </>
        )}
        <ErrorNote error={problems.note} labels={labels} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={save.busy}>
            {id ? t('templates:editor.saveChanges') : t('templates:editor.create')}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** "Write my own" or "Start from Meta's template library", at the top of a new template. */
function SourceChoice(props: { source: Source; onSource: (source: Source) => void }) {
  const id = useId();
  const choices: [Source, string][] = [
    ['own', t('templates:editor.writeOwn')],
    ['library', t('templates:editor.startFromLibrary')],
  ];
  return (
    <fieldset class="plain source-choice">
      <legend>{t('templates:editor.source')}</legend>
      <div class="radio-row">
        {choices.map(([value, label]) => (
          <label class="check" key={value}>
            <input
              type="radio"
              name={`${id}-source`}
              checked={props.source === value}
              onChange={() => props.onSource(value)}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The template's category among `choices`, with the server's problem with it. */
function CategoryField(props: {
  label: string;
  choices: readonly string[];
  value: string;
  onValue: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <div class="field">
      <label for="template-category">{props.label}</label>
      <select
        id="template-category"
        value={props.value}
        onChange={(e) => props.onValue(e.currentTarget.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? 'template-category-note' : undefined}
      >
        {props.choices.map((c) => (
          <option key={c} value={c}>
            {categoryLabel(c)}
          </option>
        ))}
      </select>
      {props.error && (
        <small id="template-category-note" class="error">
          {props.error}
        </small>
      )}
    </div>
  );
}
