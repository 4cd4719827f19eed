import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { action, type ActionAnswer } from '../../api/client';
import { currentLanguage, t } from '../../i18n/i18n';
import { ErrorNote, useAsync } from '../../ui';

export type CopilotStatus = ActionAnswer<'get-copilot-status'>;
type Citation = ActionAnswer<'suggest-reply'>['citations'][number];
/** The rewrites offered, in the order of their buttons; their names are in the catalog. */
const STYLES = ['shorter', 'friendlier', 'translate'] as const;
type Style = (typeof STYLES)[number];

/** Problems that mean the copilot went away (the model was turned off, the month's budget spent). */
const GONE = new Set(['ai_model_not_configured', 'ai_budget_exhausted']);

/**
 * Whether the workspace's copilot can be asked (get-copilot-status, readable by everyone who answers
 * conversations); `recheck` after a problem that says it went away, so the tools hide or say why.
 */
export function useCopilot() {
  const status = useAsync(() => action('get-copilot-status', {}), []);
  const recheck = (error: unknown) => {
    if (error instanceof ApiError && GONE.has(error.problem.code)) status.reload();
  };
  return { status: status.data, recheck };
}

/** Runs one copilot request at a time: what it is doing (for the busy line), and what went wrong. */
function useCopilotRequest<K extends string>(recheck: (error: unknown) => void) {
  const [busy, setBusy] = useState<K | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (kind: K, request: () => Promise<void>) => {
    setBusy(kind);
    setError(null);
    try {
      await request();
    } catch (e) {
      setError(e);
      recheck(e);
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, setError, run };
}

/**
 * The composer's copilot: "Suggest a reply" and "Rewrite" (shorter, friendlier, in the customer's
 * language) put their text in the reply box for the agent to edit and send; nothing is sent. A
 * suggestion shows beside it the knowledge it relies on; Undo brings back the draft it replaced.
 */
export function CopilotTools(props: {
  contactId: string;
  copilot: ReturnType<typeof useCopilot>;
  text: string;
  onText: (text: string) => void;
}) {
  const { contactId, text, onText } = props;
  const request = useCopilotRequest<'suggest' | 'rewrite'>(props.copilot.recheck);
  const [rewriteOpen, setRewriteOpen] = useState(false);
  const [citations, setCitations] = useState<Citation[] | null>(null);
  const [previous, setPrevious] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const forget = () => {
    setCitations(null);
    setPrevious(null);
    setDone('');
  };
  useEffect(() => {
    forget();
    request.setError(null);
    setRewriteOpen(false);
  }, [contactId]);
  // Sent (or cleared): the suggestion's sources and the earlier draft no longer belong to the box.
  useEffect(() => {
    if (!text) forget();
  }, [text]);

  const status = props.copilot.status;
  if (!status) return null;
  if (!status.available) {
    return status.reason === 'budget_exhausted' ? <p class="hint copilot">{t('inbox:copilot.budgetSpent')}</p> : null;
  }

  const replace = (next: string, said: string) => {
    setPrevious(text);
    onText(next);
    setDone(said);
  };
  const suggest = () =>
    request.run('suggest', async () => {
      const suggestion = await action('suggest-reply', { contact_id: contactId });
      replace(suggestion.reply, t('inbox:copilot.suggested'));
      setCitations(suggestion.citations);
    });
  const rewrite = (style: Style) =>
    request.run('rewrite', async () => {
      const rewritten = await action('rewrite-draft', { contact_id: contactId, text, style });
      replace(rewritten.text, t('inbox:copilot.rewritten'));
      setRewriteOpen(false);
    });
  const undo = () => {
    onText(previous ?? '');
    forget();
  };
  const busy = request.busy !== null;

  return (
    <div class="copilot" role="group" aria-label={t('inbox:copilot.group')}>
      <div class="copilot-actions">
        <button type="button" disabled={busy} onClick={() => void suggest()}>
          {t('inbox:copilot.suggest')}
        </button>
        <button
          type="button"
          aria-expanded={rewriteOpen}
          aria-controls="copilot-rewrite"
          disabled={busy || !text.trim()}
          onClick={() => setRewriteOpen(!rewriteOpen)}
        >
          {t('inbox:copilot.rewrite')}
        </button>
        {previous !== null && !busy && (
          <button type="button" class="link" onClick={undo}>
            {t('inbox:copilot.undo')}
          </button>
        )}
      </div>
      {rewriteOpen && (
        <div id="copilot-rewrite" class="copilot-actions" role="group" aria-label={t('inbox:copilot.rewriteStyles')}>
          {STYLES.map((style) => (
            <button key={style} type="button" disabled={busy} onClick={() => void rewrite(style)}>
              {t(`inbox:copilot.style.${style}`)}
            </button>
          ))}
        </div>
      )}
      <p role="status" class="hint">
        {request.busy === 'suggest'
          ? t('inbox:copilot.suggesting')
          : request.busy === 'rewrite'
            ? t('inbox:copilot.rewriting')
            : done}
      </p>
      <ErrorNote error={request.error} />
      {citations && <Sources citations={citations} />}
    </div>
  );
}

/** The knowledge a suggestion relies on, for the agent to check before sending; or that it relies on none. */
function Sources({ citations }: { citations: Citation[] }) {
  if (citations.length === 0) return <p class="hint">{t('inbox:copilot.noSources')}</p>;
  return (
    <section class="copilot-sources" aria-labelledby="copilot-sources-title">
      <h2 id="copilot-sources-title">{t('inbox:copilot.sources')}</h2>
      <p class="hint">{t('inbox:copilot.sourcesHint')}</p>
      <ul>
        {citations.map((citation) => (
          <li key={citation.chunk_id}>
            <details>
              <summary dir="auto">
                {/* A Q&A pair's heading is its question, as its title is: said once. */}
                {citation.heading && citation.heading !== citation.source_title
                  ? t('inbox:copilot.source', { title: citation.source_title, heading: citation.heading })
                  : citation.source_title}
              </summary>
              <p dir="auto">{citation.text}</p>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Summary = ActionAnswer<'summarize-conversation'>;

/** "Summarize" in the thread: a few sentences on the conversation, in the reader's language, shown above it. */
export function ThreadSummary(props: { contactId: string; copilot: ReturnType<typeof useCopilot> }) {
  const request = useCopilotRequest<'summarize'>(props.copilot.recheck);
  const [summary, setSummary] = useState<Summary | null>(null);
  useEffect(() => {
    setSummary(null);
    request.setError(null);
  }, [props.contactId]);
  if (!props.copilot.status?.available) return null;
  const summarize = () =>
    request.run('summarize', async () => {
      setSummary(await action('summarize-conversation', { contact_id: props.contactId, language: currentLanguage() }));
    });
  return (
    <div class="thread-summary">
      <button type="button" disabled={request.busy !== null} onClick={() => void summarize()}>
        {t('inbox:copilot.summarize')}
      </button>
      <p role="status" class="hint">
        {request.busy ? t('inbox:copilot.summarizing') : ''}
      </p>
      <ErrorNote error={request.error} />
      {summary && (
        <section class="summary" aria-labelledby="summary-title">
          <h2 id="summary-title">{t('inbox:copilot.summaryTitle')}</h2>
          <p dir="auto">{summary.summary}</p>
          {summary.earlier_left_out && (
            <p class="hint">{t('inbox:copilot.summaryLatest', { count: summary.messages })}</p>
          )}
          <button type="button" class="link" onClick={() => setSummary(null)}>
            {t('inbox:copilot.hideSummary')}
          </button>
        </section>
      )}
    </div>
  );
}
