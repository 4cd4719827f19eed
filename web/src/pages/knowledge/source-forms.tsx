import { useId, useRef, useState } from 'preact/hooks';
import { action } from '../../api/client';
import { formatFileSize } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, TextField, fieldErrors, useSubmit } from '../../ui';
import type { KnowledgeSourceDetail } from './words';

interface FormProps {
  /** The source changed; absent: the form adds a new one. */
  source?: KnowledgeSourceDetail;
  onSaved: () => void;
  onCancel?: () => void;
}

/** A labelled text area with the server's problem for its field. */
function TextArea(props: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  rows?: number;
  required?: boolean;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        value={props.value}
        rows={props.rows ?? 4}
        required={props.required}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      {props.error && (
        <small id={`${id}-error`} class="error">
          {props.error}
        </small>
      )}
    </div>
  );
}

/** Adds a question and its answer, or changes `source`'s. */
export function QaForm(props: FormProps) {
  const [question, setQuestion] = useState(props.source?.title ?? '');
  const [answer, setAnswer] = useState(props.source?.content ?? '');
  const save = useSubmit(async () => {
    if (props.source) await action('update-knowledge-source', { source_id: props.source.id, question, answer });
    else {
      await action('create-knowledge-qa', { question, answer });
      setQuestion('');
      setAnswer('');
    }
    props.onSaved();
  });
  const labels = { question: t('knowledge:qa.question'), answer: t('knowledge:qa.answer') };
  const errors = fieldErrors(save.error, labels);
  const title = props.source ? t('knowledge:qa.change') : t('knowledge:qa.add');
  return (
    <form class="panel knowledge-form" onSubmit={save.onSubmit} aria-label={title}>
      <h3>{title}</h3>
      <TextField
        label={labels.question}
        value={question}
        required
        maxLength={500}
        hint={t('knowledge:qa.questionHint')}
        {...save.bind('question', setQuestion)}
        error={errors.field('question')}
      />
      <TextArea
        label={labels.answer}
        value={answer}
        required
        maxLength={10_000}
        onValue={(value) => {
          setAnswer(value);
          save.edited('answer');
        }}
        error={errors.field('answer')}
      />
      <ErrorNote error={errors.note} labels={labels} />
      <FormButtons
        busy={save.busy}
        label={props.source ? t('common:save') : t('knowledge:qa.save')}
        onCancel={props.onCancel}
      />
    </form>
  );
}

/** Adds a document (typed in or a .txt/.md file of at most `maxBytes`), or changes `source`. */
export function DocumentForm(props: FormProps & { maxBytes: number }) {
  const [title, setTitle] = useState(props.source?.title ?? '');
  const [content, setContent] = useState(props.source?.content ?? '');
  const [format, setFormat] = useState<'markdown' | 'text'>(props.source?.format ?? 'markdown');
  const [file, setFile] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const formatId = useId();
  const save = useSubmit(async () => {
    const given = file ? { file: { name: file.name, data: await base64Of(file) } } : { content, format };
    if (props.source) {
      const changedText = file || content !== props.source.content || format !== props.source.format;
      await action('update-knowledge-source', { source_id: props.source.id, title, ...(changedText && given) });
    } else {
      await action('create-knowledge-document', { ...(title.trim() && { title }), ...given });
      setTitle('');
      setContent('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
    props.onSaved();
  });
  const choose = (chosen: File | undefined) => {
    save.edited('file');
    const size = formatFileSize(props.maxBytes);
    setTooLarge(
      chosen && chosen.size > props.maxBytes ? t('knowledge:document.tooLarge', { name: chosen.name, size }) : null,
    );
    setFile(chosen && chosen.size <= props.maxBytes ? chosen : null);
  };
  const labels = {
    title: t('knowledge:document.title'),
    content: t('knowledge:document.text'),
    file: t('knowledge:document.file'),
  };
  const errors = fieldErrors(save.error, labels);
  const heading = props.source ? t('knowledge:document.change') : t('knowledge:document.add');
  return (
    <form class="panel knowledge-form" onSubmit={save.onSubmit} aria-label={heading}>
      <h3>{heading}</h3>
      <TextField
        label={labels.title}
        value={title}
        required={!file}
        maxLength={200}
        {...save.bind('title', setTitle)}
        error={errors.field('title')}
      />
      <TextArea
        label={labels.content}
        value={content}
        rows={8}
        required={!file}
        onValue={(value) => {
          setContent(value);
          save.edited('content');
        }}
        error={errors.field('content')}
      />
      <div class="field">
        <label for={formatId}>{t('knowledge:document.format')}</label>
        <select id={formatId} value={format} onChange={(e) => setFormat(e.currentTarget.value as 'markdown' | 'text')}>
          <option value="markdown">{t('knowledge:document.markdown')}</option>
          <option value="text">{t('knowledge:document.plain')}</option>
        </select>
      </div>
      <div class="field">
        <label for={fileId}>{labels.file}</label>
        <input
          id={fileId}
          ref={fileInput}
          type="file"
          accept=".txt,.md,.markdown,text/plain,text/markdown"
          aria-describedby={`${fileId}-note`}
          aria-invalid={tooLarge || errors.field('file') ? true : undefined}
          onChange={(e) => choose(e.currentTarget.files?.[0])}
        />
        <small id={`${fileId}-note`} class={tooLarge || errors.field('file') ? 'error' : 'hint'}>
          {tooLarge ??
            errors.field('file') ??
            t('knowledge:document.fileHint', { size: formatFileSize(props.maxBytes) })}
        </small>
      </div>
      <ErrorNote error={errors.note} labels={labels} />
      <FormButtons
        busy={save.busy || tooLarge !== null}
        label={props.source ? t('common:save') : t('knowledge:document.save')}
        onCancel={props.onCancel}
      />
    </form>
  );
}

function FormButtons(props: { busy: boolean; label: string; onCancel?: (() => void) | undefined }) {
  return (
    <div class="reply-actions">
      <button type="submit" class="primary" disabled={props.busy}>
        {props.label}
      </button>
      {props.onCancel && (
        <button type="button" onClick={props.onCancel}>
          {t('common:cancel')}
        </button>
      )}
    </div>
  );
}

/** A file's bytes in base64, as create-knowledge-document takes them. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
