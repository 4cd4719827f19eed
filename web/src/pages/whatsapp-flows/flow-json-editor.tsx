import { useRef } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import type { WhatsappFlow } from './flow-words';

type ValidationError = WhatsappFlow['validation_errors'][number];

/** Meta's errors by the line they start on (Meta counts lines and columns from 1). */
function errorsByLine(errors: ValidationError[]): Map<number, ValidationError[]> {
  const byLine = new Map<number, ValidationError[]>();
  for (const error of errors) {
    const line = error.line_start ?? 1;
    byLine.set(line, [...(byLine.get(line) ?? []), error]);
  }
  return byLine;
}

/** Where an error is, in words: "Line 12, column 21". */
export const errorPlace = (error: ValidationError) =>
  t('whatsapp-flows:editor.at', { line: error.line_start ?? 1, column: error.column_start ?? 1 });

/**
 * The Flow JSON as text, with line numbers and Meta's validation errors in place: each line Meta names is
 * marked in the gutter and its message shown beside it; the list under the box moves the cursor to each.
 * A textarea (no editor library): the dashboard's other code-like inputs are plain text boxes too.
 */
export function FlowJsonEditor(props: {
  value: string;
  onValue: (value: string) => void;
  errors: ValidationError[];
  readOnly: boolean;
  hint: string;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const notes = useRef<HTMLDivElement>(null);
  const lines = props.value.split('\n');
  const byLine = errorsByLine(props.errors);
  // The gutter and the notes scroll with the text.
  const follow = () => {
    const top = box.current?.scrollTop ?? 0;
    if (gutter.current) gutter.current.scrollTop = top;
    if (notes.current) notes.current.scrollTop = top;
  };
  const goTo = (error: ValidationError) => {
    const textarea = box.current;
    if (!textarea) return;
    const line = (error.line_start ?? 1) - 1;
    const offset = lines.slice(0, line).reduce((sum, text) => sum + text.length + 1, 0) + (error.column_start ?? 1) - 1;
    textarea.focus();
    textarea.setSelectionRange(offset, offset);
  };
  return (
    <div class="flow-json">
      <small id="flow-json-hint" class="hint">
        {props.hint}
      </small>
      <div class="flow-json-frame">
        <div class="flow-json-gutter" ref={gutter} aria-hidden="true" data-testid="flow-json-gutter">
          {lines.map((_, i) => (
            <div key={i} class={byLine.has(i + 1) ? 'marked' : ''} data-line={i + 1}>
              {byLine.has(i + 1) ? '⚠ ' : ''}
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          id="flow-json"
          ref={box}
          class="flow-json-text"
          value={props.value}
          readOnly={props.readOnly}
          spellcheck={false}
          wrap="off"
          rows={Math.min(Math.max(lines.length, 12), 28)}
          aria-invalid={props.errors.length > 0 ? true : undefined}
          aria-describedby={props.errors.length > 0 ? 'flow-json-hint flow-json-errors' : 'flow-json-hint'}
          onInput={(e) => props.onValue(e.currentTarget.value)}
          onScroll={follow}
        />
        <div
          class="flow-json-notes"
          ref={notes}
          aria-hidden="true"
          data-testid="flow-json-notes"
          title={t('whatsapp-flows:editor.notes')}
        >
          {lines.map((_, i) => (
            <div key={i} data-line={i + 1}>
              {byLine
                .get(i + 1)
                ?.map((error) => error.message)
                .join(' · ')}
            </div>
          ))}
        </div>
      </div>
      {props.errors.length > 0 && (
        <div class="error" id="flow-json-errors">
          <p>{t('whatsapp-flows:editor.errors', { count: props.errors.length })}</p>
          <ol>
            {props.errors.map((error, i) => (
              <li key={i}>
                <button type="button" class="link" onClick={() => goTo(error)}>
                  {errorPlace(error)}
                </button>
                {error.pointers?.[0]?.path && (
                  <>
                    {' '}
                    <code>{error.pointers[0].path}</code>
                  </>
                )}
                : {error.message}
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
