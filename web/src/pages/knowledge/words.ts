import type { ActionAnswer } from '../../api/client';
import { t } from '../../i18n/i18n';

export type KnowledgeSource = ActionAnswer<'list-knowledge-sources'>[number];
export type KnowledgeSourceDetail = ActionAnswer<'get-knowledge-source'>;

/** What kind of source it is, in the person's language. */
export const kindLabel = (kind: KnowledgeSource['kind']) => t(`knowledge:kinds.${kind}`);

/** How its chunks are found: by words, by words and meaning, or by words while vectors are made. */
export const stateLabel = (state: KnowledgeSource['state']) => t(`knowledge:states.${state}`);

/** A source's name as a person knows it: a Q&A pair's question, a document's title, or its kind for the synced ones. */
export const sourceName = (source: Pick<KnowledgeSource, 'kind' | 'title'>) =>
  source.kind === 'templates' || source.kind === 'quick_replies' ? kindLabel(source.kind) : source.title;
