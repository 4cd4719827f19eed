import { useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../../api/client';
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, TextField, useSubmit } from '../../ui';
import { kindLabel, sourceName } from './words';

type Found = ActionAnswer<'search-knowledge'>;

/** "Try a question": the chunks search-knowledge finds for it, best first, with the ranks that found them. */
export function TryQuestion() {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const ask = useSubmit(async () => {
    setFound(await action('search-knowledge', { query, limit: 5 }));
  });
  const labels = { query: t('knowledge:try.question') };
  return (
    <section class="panel" aria-labelledby="try-title">
      <h2 id="try-title">{t('knowledge:try.title')}</h2>
      <form class="knowledge-try" onSubmit={ask.onSubmit}>
        <TextField
          label={labels.query}
          type="search"
          value={query}
          required
          maxLength={1000}
          hint={t('knowledge:try.hint')}
          {...ask.bind('query', setQuery)}
        />
        <button type="submit" class="primary" disabled={ask.busy}>
          {ask.busy ? t('knowledge:try.searching') : t('knowledge:try.search')}
        </button>
      </form>
      <ErrorNote error={ask.error} labels={labels} />
      <div role="status" aria-live="polite">
        {found && (
          <p class="muted">
            {found.chunks.length === 0
              ? t('knowledge:try.none')
              : found.retrieval === 'hybrid'
                ? t('knowledge:try.byWordsAndMeaning')
                : t('knowledge:try.byWords')}
          </p>
        )}
      </div>
      {found && found.chunks.length > 0 && (
        <ol class="knowledge-chunks" aria-label={t('knowledge:try.resultsLabel')}>
          {found.chunks.map((chunk) => (
            <li key={chunk.id}>
              <p class="knowledge-chunk-source">
                <strong>{sourceName({ kind: chunk.source_kind, title: chunk.source_title })}</strong>
                <span class="badge">{kindLabel(chunk.source_kind)}</span>
                {chunk.heading && <span class="muted"> · {chunk.heading}</span>}
              </p>
              <p class="knowledge-chunk-text">{chunk.text}</p>
              <p class="muted knowledge-chunk-score">
                {[
                  t('knowledge:try.score', { score: formatNumber(chunk.score, { maximumFractionDigits: 4 }) }),
                  chunk.full_text_rank !== null &&
                    t('knowledge:try.wordRank', { rank: formatNumber(chunk.full_text_rank) }),
                  chunk.vector_rank !== null &&
                    t('knowledge:try.meaningRank', {
                      rank: formatNumber(chunk.vector_rank),
                      similarity: formatNumber(chunk.similarity ?? 0, { maximumFractionDigits: 2 }),
                    }),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
