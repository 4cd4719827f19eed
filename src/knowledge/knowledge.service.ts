import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Deps } from '../db/deps.js';
import type { Database } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import { errors, type FieldError } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { chunkDocument, chunkPassage } from './chunking.js';
import { documentText } from './documents.js';
import { createEmbedJob } from './embedding.js';
import { contextOf, indexSource } from './indexer.js';
import { matchKey, portableSource, sourceFields, type PortableKnowledge } from './knowledge-transfer.js';
import { knowledgeProblems } from './knowledge.problems.js';
import { knowledgeRepository, type SourceRow } from './knowledge.repository.js';
import {
  DOCUMENT_MAX_BYTES,
  SOURCES_MAX,
  type CreateKnowledgeDocumentInput,
  type KnowledgeSearchResult,
  type KnowledgeSettings,
  type KnowledgeSource,
  type KnowledgeSourceDetail,
  type SourceKind,
  type UpdateKnowledgeSettingsInput,
  type UpdateKnowledgeSourceInput,
} from './knowledge.schema.js';
import { createRetrieval } from './retrieval.js';
import { queryWordsOf } from './search-text.js';
import { syncedContent, type SyncedKind } from './synced-sources.js';
import { createVectorIndex, type Embedder } from './vectors.js';

/** Memory for workspaces' vectors in one process (about 40,000 chunks of 1,536 dimensions). */
const VECTOR_MEMORY_BYTES = 256 * 1024 * 1024;
const SYNCED_TITLES: Record<SyncedKind, string> = { templates: 'Approved templates', quick_replies: 'Quick replies' };

/** What a Q&A pair's or a document's chunks are made from, hashed: an unchanged source is not cut again. */
const digestOf = (row: Pick<SourceRow, 'kind' | 'title' | 'content' | 'format'>) =>
  createHash('sha256')
    .update(JSON.stringify([row.kind, row.title, row.content, row.format]))
    .digest('hex');

const draftsOf = (row: Pick<SourceRow, 'kind' | 'title' | 'content' | 'format'>) =>
  row.kind === 'qa' ? chunkPassage(row.title, row.content) : chunkDocument(row.content, row.format);

/** The start of a source's text, cut at a character (not inside one). */
const excerptOf = (content: string) => [...content.slice(0, 400)].slice(0, 200).join('');

function present(row: SourceRow, embedded: number, model: string | null): KnowledgeSource {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    excerpt: excerptOf(row.content),
    format: row.format,
    file_name: row.file_name,
    chunk_count: row.chunk_count,
    embedded_count: embedded,
    state: model === null ? 'full_text' : embedded < row.chunk_count ? 'embedding' : 'hybrid',
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    indexed_at: formatTimestamp(row.indexed_at),
  };
}

/**
 * A workspace's knowledge: the sources a team manages (Q&A pairs, documents, and the workspace's
 * templates and quick replies when switched on), cut into chunks and indexed, and retrieval over them.
 */
export function createKnowledgeService(deps: Deps, embedder: Embedder, wakeFor: (work: QueuedWork) => void) {
  const { db, reads, clock, newId } = deps;
  const repository = () => knowledgeRepository(db);
  const now = () => toStoredTimestamp(clock.now());

  /** Runs `write` in a transaction, then wakes the workers it queued work for (the embeddings job). */
  async function transaction<T>(write: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    const { result, work } = await db
      .transaction()
      .execute(async (trx) => ({ result: await write(trx), work: queuedIn(trx) }));
    wakeFor(work);
    return result;
  }

  /** Re-indexes the templates and quick replies sources whose rows changed since they were indexed. */
  async function keepCurrent(workspaceId: string): Promise<void> {
    for (const source of await knowledgeRepository(reads).syncedSources(workspaceId)) {
      const kind = source.kind as SyncedKind;
      const state = await syncedContent(reads).stateOf(workspaceId, kind);
      if (source.digest === state.digest) continue;
      await transaction(async (trx) => {
        const locked = await knowledgeRepository(trx).lockSource(workspaceId, source.id, deps.dialect);
        if (locked && locked.digest !== state.digest) await indexSynced(trx, locked, state);
      });
    }
  }

  /**
   * Indexes a templates or quick replies source as its rows are. Their state is read before their
   * content, so a change in between leaves a digest that differs next time. A change in the very
   * millisecond of the index is indistinguishable by `updated_at`: the source is then looked at again.
   */
  async function indexSynced(
    trx: Kysely<Database>,
    source: SourceRow,
    state?: { digest: string; latest: string | null },
  ) {
    const kind = source.kind as SyncedKind;
    const current = state ?? (await syncedContent(trx).stateOf(source.workspace_id, kind));
    const drafts = await syncedContent(trx).draftsOf(source.workspace_id, kind);
    const settled = current.latest === null || current.latest < now();
    await indexSource(trx, deps, source, { drafts, context: '', digest: settled ? current.digest : null });
  }

  const vectors = createVectorIndex(reads, VECTOR_MEMORY_BYTES);
  const retrieval = createRetrieval(deps, embedder, vectors, keepCurrent, wakeFor);

  async function found(caller: Caller, id: string): Promise<SourceRow> {
    const row = await repository().findSource(caller.workspaceId, id);
    if (!row) throw errors.notFound('knowledge source', 'source_id');
    return row;
  }

  async function presented(workspaceId: string, row: SourceRow): Promise<KnowledgeSource> {
    const model = (await repository().index(workspaceId))?.embedding_model ?? null;
    const embedded = (await repository().chunkCounts(workspaceId, model)).get(row.id) ?? 0;
    return present(row, embedded, model);
  }

  /** Adds a Q&A pair or a document with its chunks, in one transaction. */
  async function add(caller: Caller, fields: Pick<SourceRow, 'kind' | 'title' | 'content' | 'format' | 'file_name'>) {
    if ((await repository().countSources(caller.workspaceId)) >= SOURCES_MAX) {
      throw errors.conflict(`A workspace keeps at most ${SOURCES_MAX} knowledge sources; delete one first`);
    }
    const at = now();
    const row: SourceRow = {
      id: newId(),
      workspace_id: caller.workspaceId,
      ...fields,
      digest: null,
      chunk_count: 0,
      created_at: at,
      updated_at: at,
      indexed_at: null,
    };
    await transaction(async (trx) => {
      await knowledgeRepository(trx).insertSource(row);
      await indexSource(trx, deps, row, { drafts: draftsOf(row), context: contextOf(row), digest: digestOf(row) });
    });
    return presented(caller.workspaceId, (await repository().findSource(caller.workspaceId, row.id))!);
  }

  /** Writes a Q&A pair's or a document's changed fields and cuts it again; an unchanged source is left be. */
  async function replace(row: SourceRow, fields: Partial<SourceRow>): Promise<void> {
    const next = { ...row, ...fields };
    const digest = digestOf(next);
    if (digest === row.digest && next.file_name === row.file_name) return;
    await transaction(async (trx) => {
      await knowledgeRepository(trx).updateSource(row.workspace_id, row.id, { ...fields, updated_at: now() });
      await indexSource(trx, deps, next, { drafts: draftsOf(next), context: contextOf(next), digest });
    });
  }

  async function remove(workspaceId: string, id: string): Promise<void> {
    await transaction(async (trx) => {
      await knowledgeRepository(trx).deleteSource(workspaceId, id);
      await knowledgeRepository(trx).bumpGeneration(workspaceId, now());
    });
  }

  async function switchSynced(workspaceId: string, kind: SyncedKind, on: boolean): Promise<void> {
    const existing = (await repository().syncedSources(workspaceId)).find((source) => source.kind === kind);
    if (!on) {
      if (existing) await remove(workspaceId, existing.id);
      return;
    }
    if (existing) return;
    const at = now();
    const row: SourceRow = {
      id: newId(),
      workspace_id: workspaceId,
      kind,
      title: SYNCED_TITLES[kind],
      content: '',
      format: 'text',
      file_name: null,
      digest: null,
      chunk_count: 0,
      created_at: at,
      updated_at: at,
      indexed_at: null,
    };
    await transaction(async (trx) => {
      await knowledgeRepository(trx).insertSource(row);
      await indexSynced(trx, row);
    });
  }

  /** Switches templates and quick replies on (indexed now) or off (their chunks deleted). */
  async function updateSettings(caller: Caller, input: UpdateKnowledgeSettingsInput): Promise<KnowledgeSettings> {
    if (input.templates !== undefined) await switchSynced(caller.workspaceId, 'templates', input.templates);
    if (input.quick_replies !== undefined) await switchSynced(caller.workspaceId, 'quick_replies', input.quick_replies);
    return settings(caller);
  }

  async function settings(caller: Caller): Promise<KnowledgeSettings> {
    const synced = new Set((await repository().syncedSources(caller.workspaceId)).map((source) => source.kind));
    return {
      templates: synced.has('templates'),
      quick_replies: synced.has('quick_replies'),
      embedding_model: (await repository().index(caller.workspaceId))?.embedding_model ?? null,
      document_max_bytes: DOCUMENT_MAX_BYTES,
    };
  }

  return {
    embedJob: createEmbedJob(deps, embedder),

    /** Oldest first, each with its chunk counts and state. */
    async list(caller: Caller, input: { kind?: SourceKind | undefined }): Promise<KnowledgeSource[]> {
      await keepCurrent(caller.workspaceId);
      const model = (await repository().index(caller.workspaceId))?.embedding_model ?? null;
      const embedded = await repository().chunkCounts(caller.workspaceId, model);
      const rows = await repository().listSources(caller.workspaceId, input.kind);
      return rows.map((row) => present(row, embedded.get(row.id) ?? 0, model));
    },

    /** A source with its whole text and its chunks. */
    async get(caller: Caller, input: { source_id: string }): Promise<KnowledgeSourceDetail> {
      await keepCurrent(caller.workspaceId);
      const row = await found(caller, input.source_id);
      const model = (await repository().index(caller.workspaceId))?.embedding_model ?? null;
      const chunks = await repository().chunksOf(caller.workspaceId, row.id);
      const embedded = chunks.filter((chunk) => model !== null && chunk.embedding_model === model).length;
      return {
        ...present(row, embedded, model),
        content: row.content,
        chunks: chunks.map((chunk) => ({
          id: chunk.id,
          position: chunk.position,
          heading: chunk.heading,
          text: chunk.text,
          embedded: model !== null && chunk.embedding_model === model,
        })),
      };
    },

    createQa(caller: Caller, input: { question: string; answer: string }): Promise<KnowledgeSource> {
      const question = input.question.trim();
      if (!question) throw errors.invalid(knowledgeProblems.problem('question', 'question_empty'));
      if (!input.answer.trim()) throw errors.invalid(knowledgeProblems.problem('answer', 'answer_empty'));
      return add(caller, { kind: 'qa', title: question, content: input.answer, format: 'text', file_name: null });
    },

    /** Typed in (`content`) or uploaded (`file`); an upload is titled by its file name unless given a title. */
    createDocument(caller: Caller, input: CreateKnowledgeDocumentInput): Promise<KnowledgeSource> {
      const document = documentText(input);
      if (!document) throw errors.invalid(knowledgeProblems.problem('content', 'content_empty'));
      const title = (input.title ?? document.fileName?.replace(/\.[^.]+$/, '') ?? '').trim();
      if (!title) throw errors.invalid(knowledgeProblems.problem('title', 'title_empty'));
      return add(caller, {
        kind: 'document',
        title,
        content: document.content,
        format: document.format,
        file_name: document.fileName,
      });
    },

    /** Fields not given keep their value; a changed source is cut and indexed again. */
    async update(caller: Caller, input: UpdateKnowledgeSourceInput): Promise<KnowledgeSource> {
      const row = await found(caller, input.source_id);
      await replace(row, changedFields(row, input));
      return presented(caller.workspaceId, (await repository().findSource(caller.workspaceId, row.id))!);
    },

    /** Returns the source as it was; its chunks are gone with it (templates and quick replies: switched off). */
    async delete(caller: Caller, input: { source_id: string }): Promise<KnowledgeSource> {
      const row = await found(caller, input.source_id);
      const before = await presented(caller.workspaceId, row);
      await remove(caller.workspaceId, row.id);
      return before;
    },

    settings,

    updateSettings,

    /** The knowledge as `parley export` writes it: the Q&A pairs and documents, oldest first, and the settings. */
    async portable(caller: Caller): Promise<Required<PortableKnowledge>> {
      const { templates, quick_replies } = await settings(caller);
      const rows = await repository().listSources(caller.workspaceId);
      const typed = rows.filter((row) => row.kind === 'qa' || row.kind === 'document');
      return { templates, quick_replies, sources: typed.map(portableSource) };
    },

    /** Why `restore` would refuse these sources (checked with the rest of a document, before any write). */
    async restoreProblems(caller: Caller, knowledge: PortableKnowledge, path: string): Promise<FieldError[]> {
      const existing = new Set((await repository().listSources(caller.workspaceId)).map(matchKey));
      const added = new Set((knowledge.sources ?? []).map((entry) => matchKey(sourceFields(entry))));
      const count = existing.size + [...added].filter((key) => !existing.has(key)).length;
      if (count <= SOURCES_MAX) return [];
      return [knowledgeProblems.problem(`${path}/sources`, 'too_many_sources', { count, limit: SOURCES_MAX })];
    },

    /**
     * `parley import`: the settings given, then each source added, or written over the workspace's of the same
     * kind and question or title (cut and indexed again when it changed). Sources not named are kept.
     */
    async restore(caller: Caller, knowledge: PortableKnowledge): Promise<{ created: number; updated: number }> {
      const { templates, quick_replies } = knowledge;
      if (templates !== undefined || quick_replies !== undefined) {
        await updateSettings(caller, { templates, quick_replies });
      }
      const byKey = new Map<string, SourceRow>();
      for (const row of (await repository().listSources(caller.workspaceId)).reverse()) byKey.set(matchKey(row), row);
      let created = 0;
      for (const entry of knowledge.sources ?? []) {
        const fields = sourceFields(entry);
        const row = byKey.get(matchKey(fields));
        if (row) await replace(row, fields);
        else created += 1;
        const id = row ? row.id : (await add(caller, fields)).id;
        // As written now: the document may name the same source again.
        byKey.set(matchKey(fields), (await repository().findSource(caller.workspaceId, id))!);
      }
      return { created, updated: (knowledge.sources?.length ?? 0) - created };
    },

    /** search-knowledge: the chunks that best answer `query`. */
    search(caller: Caller, input: { query: string; limit?: number | undefined }): Promise<KnowledgeSearchResult> {
      if (queryWordsOf(input.query).length === 0)
        throw errors.invalid(knowledgeProblems.problem('query', 'query_no_words'));
      return retrieval.retrieve(caller.workspaceId, input.query, { limit: input.limit ?? 5 });
    },

    /** For the assistant: the chunks that best answer a customer's question, to answer from and cite. */
    retrieve: (workspaceId: string, question: string, options: { limit: number }) =>
      retrieval.retrieve(workspaceId, question, options),
  };
}

/** The fields an update changes, checked against the source's kind. */
function changedFields(row: SourceRow, input: UpdateKnowledgeSourceInput): Partial<SourceRow> {
  const given = (names: (keyof UpdateKnowledgeSourceInput)[]) => names.filter((name) => input[name] !== undefined);
  if (row.kind === 'templates' || row.kind === 'quick_replies') {
    throw errors.invalid(knowledgeProblems.problem('source_id', 'synced_source'));
  }
  const foreign = row.kind === 'qa' ? given(['title', 'content', 'format', 'file']) : given(['question', 'answer']);
  if (foreign.length > 0)
    throw errors.invalid(...foreign.map((name) => knowledgeProblems.problem(name, 'not_for_kind')));
  if (row.kind === 'qa') {
    const question = input.question?.trim();
    if (question === '') throw errors.invalid(knowledgeProblems.problem('question', 'question_empty'));
    if (input.answer !== undefined && !input.answer.trim())
      throw errors.invalid(knowledgeProblems.problem('answer', 'answer_empty'));
    return { ...(question && { title: question }), ...(input.answer !== undefined && { content: input.answer }) };
  }
  const title = input.title?.trim();
  if (title === '') throw errors.invalid(knowledgeProblems.problem('title', 'title_empty'));
  const document = documentText(input, row.format);
  return {
    ...(title && { title }),
    ...(document && { content: document.content, format: document.format, file_name: document.fileName }),
    ...(!document && input.format && { format: input.format }),
  };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
