import { type ComponentChildren, type JSX } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, sentencesOf, type FieldLabels } from './api';
import { dashboard, type PathWith } from './api/client';
import type { paths as DashboardPaths } from './api/schema';
import { t } from './i18n/i18n';

/** Loads data for a page and reloads on demand; stale answers (deps changed meanwhile) are dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error: unknown) => mine === generation.current && setState({ error, loading: false }),
    );
  }, deps); // the caller lists what `load` depends on
  useEffect(reload, [reload]);
  /** Changes what is shown at once (an optimistic edit): a load already under way is dropped, so reload after saving. */
  const update = useCallback((change: (data: T) => T) => {
    generation.current++;
    setState((s) => (s.data === undefined ? s : { ...s, data: change(s.data) }));
  }, []);
  return { ...state, reload, update };
}

export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = t('common:pageTitle', { title: props.title });
  }, [props.title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-header">
        <h1 id="page-title">{props.title}</h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

/**
 * An error in words, announced to screen readers: every problem it carries, each field named by the
 * label the form shows for it (`labels`); a field the form has no label for is not named at all.
 */
export function ErrorNote({ error, labels }: { error: unknown; labels?: FieldLabels }) {
  if (!error) return null;
  const sentences = sentencesOf(error, labels);
  if (sentences.length === 1) {
    return (
      <p class="error" role="alert">
        {sentences[0]}
      </p>
    );
  }
  return (
    <div class="error" role="alert">
      <p>{t('common:problems', { count: sentences.length })}</p>
      <ul>
        {sentences.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
    </div>
  );
}

type InputProps = Omit<JSX.IntrinsicElements['input'], 'onInput' | 'value'>;

/** A labelled text input; `hint` and `error` are tied to it for assistive technology. */
export function TextField(
  props: InputProps & {
    label: string;
    value: string;
    onValue: (value: string) => void;
    hint?: ComponentChildren;
    error?: string | undefined;
  },
) {
  const { label, value, onValue, hint, error, ...rest } = props;
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-describedby={hint || error ? `${id}-note` : undefined}
        aria-invalid={error ? true : undefined}
        {...rest}
      />
      {(hint || error) && (
        <small id={`${id}-note`} class={error ? 'error' : 'hint'}>
          {error ?? hint}
        </small>
      )}
    </div>
  );
}

type TextAreaProps = Omit<JSX.IntrinsicElements['textarea'], 'onInput' | 'value'>;

/** A labelled text area, as TextField: `hint` and `error` tied to it for assistive technology. */
export function TextAreaField(
  props: TextAreaProps & {
    label: string;
    value: string;
    onValue: (value: string) => void;
    hint?: ComponentChildren;
    error?: string | undefined;
  },
) {
  const { label, value, onValue, hint, error, ...rest } = props;
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-describedby={hint || error ? `${id}-note` : undefined}
        aria-invalid={error ? true : undefined}
        {...rest}
      />
      {(hint || error) && (
        <small id={`${id}-note`} class={error ? 'error' : 'hint'}>
          {error ?? hint}
        </small>
      )}
    </div>
  );
}

/** A labelled checkbox with its hint, and the server's problem with it. */
export function CheckField(props: {
  label: string;
  hint?: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div class="field">
      <label class="check">
        <input
          type="checkbox"
          checked={props.checked}
          onChange={(e) => props.onChecked(e.currentTarget.checked)}
          aria-describedby={props.hint || props.error ? `${id}-note` : undefined}
          aria-invalid={props.error ? true : undefined}
        />
        {props.label}
      </label>
      {(props.hint || props.error) && (
        <small id={`${id}-note`} class={props.error ? 'error' : 'hint'}>
          {props.error ?? props.hint}
        </small>
      )}
    </div>
  );
}

/**
 * Copies text to the clipboard and says so. "Copied" belongs to the text that was copied: a new
 * text (the next token) starts as "Copy", and a refused clipboard says so instead of claiming success.
 */
export function CopyButton({ text, label = t('common:copy') }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<{ text: string; copied: boolean } | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome({ text, copied: true });
    } catch {
      setOutcome({ text, copied: false });
    }
  };
  const shown = outcome?.text === text ? outcome : null;
  return (
    <button type="button" onClick={() => void copy()} aria-live="polite">
      {shown === null ? label : shown.copied ? t('common:copied') : t('common:notCopied')}
    </button>
  );
}

/** A button that asks first, in a modal <dialog> (keyboard and screen-reader friendly by default). */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  danger?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    try {
      await props.onConfirm();
      dialog.current?.close();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <button type="button" class={props.danger ? 'danger' : ''} onClick={() => dialog.current?.showModal()}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-label={props.question}>
        <p>{props.question}</p>
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            {t('common:cancel')}
          </button>
          <button type="button" class={props.danger ? 'danger' : 'primary'} onClick={() => void confirm()}>
            {props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** The dashboard's deletes of one record by its id. */
type DeleteById = Extract<PathWith<DashboardPaths, 'delete'>, `${string}/{id}`>;

/** A danger button that asks first, then deletes the record `id` at `path` and calls `onDeleted`. */
export function DeleteButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  path: DeleteById;
  id: string;
  onDeleted: () => void;
}) {
  const { path, id, onDeleted, ...asked } = props;
  return (
    <ConfirmButton
      {...asked}
      danger
      onConfirm={async () => {
        await dashboard.delete(path, { path: { id } });
        onDeleted();
      }}
    />
  );
}

/** A list as a table, named for screen readers; `actions` adds a last column for each row's buttons. */
export function Table(props: { caption: string; columns: string[]; actions?: boolean; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            {props.actions && (
              <th scope="col">
                <span class="visually-hidden">{t('common:actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/**
 * A form's field errors from the server, named by each field's label ("Password must be at least 12
 * characters"); the form's note then shows every problem no field shows.
 */
export function fieldErrors(error: unknown, labels: FieldLabels) {
  const messages = Object.fromEntries(
    Object.entries(labels).map(([field, label]) => {
      const message = error instanceof ApiError ? error.fieldMessage(field) : undefined;
      return [field, message && `${label} ${message}`];
    }),
  );
  const shown = Object.keys(messages).filter((field) => messages[field]);
  const note = error instanceof ApiError && shown.length > 0 ? error.without(shown) : error;
  return { field: (name: string) => messages[name], note };
}

/**
 * Runs a form's submit handler, tracking whether it is busy and what went wrong. The one rule for
 * every form's errors: a field's problem goes as soon as the field changes — the form calls
 * `edited(field…)` from the field's change handler (fields as the API names them, `name` or
 * `/steps/0/delay`; a field also clears the problems under it), or hands a TextField `bind(field, set)`.
 */
export function useSubmit(run: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const onSubmit = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const edited = useCallback(
    (...fields: string[]) => setError((e: unknown) => (e instanceof ApiError ? e.withoutChanged(fields) : e)),
    [],
  );
  /** A TextField's `onValue` and `error` for the request field it fills: its problem shown, and gone on a change. */
  const bind = (field: string, set: (value: string) => void) => ({
    onValue: (value: string) => {
      set(value);
      edited(field);
    },
    error: error instanceof ApiError ? error.fieldMessage(field) : undefined,
  });
  return { busy, error, edited, bind, onSubmit: (event: Event) => void onSubmit(event), run: onSubmit };
}
