import { Type } from '@sinclair/typebox';
import { actionFamily } from '../http/action-family.js';
import type { Api } from '../http/types.js';
import {
  CreateKnowledgeDocumentBody,
  CreateKnowledgeQaBody,
  DOCUMENT_BODY_LIMIT,
  DOCUMENT_MAX_BYTES,
  KnowledgeChunkSchema,
  KnowledgeMatchSchema,
  KnowledgeSearchResultSchema,
  KnowledgeSettingsSchema,
  KnowledgeSourceDetailSchema,
  KnowledgeSourceIdBody,
  KnowledgeSourceSchema,
  ListKnowledgeSourcesBody,
  SEARCH_LIMIT_MAX,
  SearchKnowledgeBody,
  SOURCES_MAX,
  UpdateKnowledgeSettingsBody,
  UpdateKnowledgeSourceBody,
} from './knowledge.schema.js';
import type { KnowledgeService } from './knowledge.service.js';

const source = Type.Ref(KnowledgeSourceSchema);
const ABOUT =
  'Knowledge is what the workspace’s AI teammate answers from: Q&A pairs, documents, and (switched on) the approved templates and quick replies, cut into chunks and indexed for full-text search, and by meaning when the workspace has an embeddings model. Every role may read and search it; changing it needs the automation permission.';
const DOCUMENT_LIMIT = `${DOCUMENT_MAX_BYTES / 1024} KiB`;

/** The knowledge actions: sources (list, get, create, update, delete), the synced sources' switches, and search. */
export function registerKnowledgeRoutes(app: Api, knowledge: KnowledgeService): void {
  for (const schema of [
    KnowledgeSourceSchema,
    KnowledgeChunkSchema,
    KnowledgeSourceDetailSchema,
    KnowledgeSettingsSchema,
    KnowledgeMatchSchema,
    KnowledgeSearchResultSchema,
  ]) {
    app.addSchema(schema);
  }
  // Reading knowledge is open to every role (an agent checks what the assistant would say); changing it is automation.
  const read = actionFamily(app, { tags: ['Knowledge'], permission: null, about: ABOUT });
  const write = actionFamily(app, { tags: ['Knowledge'], permission: 'automation', about: ABOUT });

  read(
    'list-knowledge-sources',
    {
      operationId: 'listKnowledgeSources',
      summary: "List the workspace's knowledge sources",
      description: `Oldest first, at most ${SOURCES_MAX}, each with how many chunks it was cut into, how many have a vector, and its \`state\`; \`kind\` narrows the list. Templates and quick replies changed since they were indexed are indexed again first.`,
      body: ListKnowledgeSourcesBody,
      response: Type.Array(source, { maxItems: SOURCES_MAX + 2 }),
      errors: [],
    },
    'read',
    (caller, body) => knowledge.list(caller, body),
  );
  read(
    'get-knowledge-source',
    {
      operationId: 'getKnowledgeSource',
      summary: 'Get a knowledge source with its text and chunks',
      description: 'The whole answer or document, and its chunks in order (the ids search-knowledge cites).',
      body: KnowledgeSourceIdBody,
      response: Type.Ref(KnowledgeSourceDetailSchema),
      errors: [404],
    },
    'read',
    (caller, body) => knowledge.get(caller, body),
  );
  write(
    'create-knowledge-qa',
    {
      operationId: 'createKnowledgeQa',
      summary: 'Add a question and its answer',
      description: 'Indexed at once: search-knowledge finds it in the same second.',
      body: CreateKnowledgeQaBody,
      response: source,
      errors: [],
    },
    'write',
    (caller, body) => knowledge.createQa(caller, body),
  );
  write(
    'create-knowledge-document',
    {
      operationId: 'createKnowledgeDocument',
      bodyLimit: DOCUMENT_BODY_LIMIT,
      summary: 'Add a text or Markdown document',
      description: `Typed in (\`content\`, with its \`format\`) or uploaded (\`file\`: a \`.txt\` or \`.md\` file, base64), at most ${DOCUMENT_LIMIT} of UTF-8 text; a larger one, another kind of file, or one that is not text is a 400 naming \`content\` or \`file\`, and nothing is stored. Markdown headings become the path each chunk keeps. An upload without a \`title\` is titled by its file name.`,
      body: CreateKnowledgeDocumentBody,
      response: source,
      errors: [],
    },
    'write',
    (caller, body) => knowledge.createDocument(caller, body),
  );
  write(
    'update-knowledge-source',
    {
      operationId: 'updateKnowledgeSource',
      bodyLimit: DOCUMENT_BODY_LIMIT,
      summary: 'Change a Q&A pair or a document',
      description:
        'A Q&A pair takes `question` and `answer`; a document `title`, `content` or `file`, and `format`. Fields not given keep their value; a changed source is cut and indexed again at once (a chunk whose text did not change keeps its id). Templates and quick replies are changed where they are kept (400).',
      body: UpdateKnowledgeSourceBody,
      response: source,
      errors: [404],
    },
    'write',
    (caller, body) => knowledge.update(caller, body),
  );
  write(
    'delete-knowledge-source',
    {
      operationId: 'deleteKnowledgeSource',
      summary: 'Delete a knowledge source',
      description:
        'Its chunks go with it. Returns the source as it was. Deleting the templates or quick replies source switches it off.',
      body: KnowledgeSourceIdBody,
      response: source,
      errors: [404],
    },
    'write',
    (caller, body) => knowledge.delete(caller, body),
  );
  read(
    'get-knowledge-settings',
    {
      operationId: 'getKnowledgeSettings',
      summary: 'Whether templates and quick replies are knowledge, and the embeddings model',
      description:
        'The switches of the two sources Parley keeps current, the embeddings model last seen, and the document size limit.',
      body: Type.Object({}),
      response: Type.Ref(KnowledgeSettingsSchema),
      errors: [],
    },
    'read',
    (caller) => knowledge.settings(caller),
  );
  write(
    'update-knowledge-settings',
    {
      operationId: 'updateKnowledgeSettings',
      summary: 'Switch templates or quick replies as knowledge on or off',
      description:
        'On: the approved templates (one chunk per approved translation) or the quick replies (one each) are indexed now, and again whenever they have changed by the next search. Off: their chunks are deleted.',
      body: UpdateKnowledgeSettingsBody,
      response: Type.Ref(KnowledgeSettingsSchema),
      errors: [],
    },
    'write',
    (caller, body) => knowledge.updateSettings(caller, body),
  );
  read(
    'search-knowledge',
    {
      operationId: 'searchKnowledge',
      summary: 'Find the chunks that answer a question',
      description: `Up to \`limit\` chunks (at most ${SEARCH_LIMIT_MAX}), best first, each with its source, heading, text and \`score\`. Full-text search finds any of the question's words, in any language (case and accents do not matter); with an embeddings model the nearest chunks by meaning are fused in (\`retrieval\`: hybrid). A question without a word is a 400.`,
      body: SearchKnowledgeBody,
      response: Type.Ref(KnowledgeSearchResultSchema),
      errors: [],
    },
    'read',
    (caller, body) => knowledge.search(caller, body),
  );
}
