import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/** The largest document, in bytes of UTF-8 text (typed in or uploaded). */
export const DOCUMENT_MAX_BYTES = 1024 * 1024;
/** The largest create/update body: a document's bytes in base64 (4/3), or as JSON-escaped text, with room. */
export const DOCUMENT_BODY_LIMIT = 8 * DOCUMENT_MAX_BYTES;
/** Sources per workspace. */
export const SOURCES_MAX = 2000;
export const SEARCH_LIMIT_MAX = 20;

export const SOURCE_KINDS = ['qa', 'document', 'templates', 'quick_replies'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
export const FORMATS = ['markdown', 'text'] as const;
/** How far a source's chunks can be found: by their words only, or also by meaning once every one has a vector. */
export const STATES = ['full_text', 'embedding', 'hybrid'] as const;

const Kind = Type.Union(
  SOURCE_KINDS.map((kind) => Type.Literal(kind)),
  {
    description:
      '`qa`: a question and its answer; `document`: a text or Markdown document; `templates` and `quick_replies`: the workspace’s approved templates and its quick replies, kept current by Parley',
  },
);
const Format = Type.Union(
  FORMATS.map((format) => Type.Literal(format)),
  { description: '`markdown`: its headings make the path each chunk keeps; `text`: plain paragraphs' },
);

const Question = Type.String({ minLength: 1, maxLength: 500, description: 'The question, as a customer would ask it' });
const Answer = Type.String({
  minLength: 1,
  maxLength: 10_000,
  description: 'The answer (WhatsApp markup passes through)',
});
const Title = Type.String({ minLength: 1, maxLength: 200, description: 'The document’s title' });
const Content = Type.String({
  minLength: 1,
  maxLength: DOCUMENT_BODY_LIMIT,
  description: `The document’s text, at most ${DOCUMENT_MAX_BYTES / 1024} KiB of UTF-8`,
});
const File = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 240,
      description: 'The file’s name: `.txt` (plain text) or `.md`/`.markdown` (Markdown)',
      examples: ['returns.md'],
    }),
    data: Type.String({
      minLength: 1,
      maxLength: DOCUMENT_BODY_LIMIT,
      contentEncoding: 'base64',
      description: `The file, base64-encoded: UTF-8 text, at most ${DOCUMENT_MAX_BYTES / 1024} KiB`,
    }),
  },
  { description: 'An uploaded text or Markdown file, instead of `content`' },
);

const sourceFields = {
  id: Uuid(),
  kind: Kind,
  title: Type.String({
    description: 'A Q&A pair’s question, a document’s title; for templates and quick replies, what they are',
  }),
  excerpt: Type.String({
    description:
      'The start of the answer or the document (at most 200 characters); empty for templates and quick replies',
  }),
  format: Format,
  file_name: NullableField(Type.String({ description: 'The uploaded file’s name; null when typed in' })),
  chunk_count: Type.Integer({ description: 'How many chunks the source was cut into' }),
  embedded_count: Type.Integer({ description: 'How many of them have a vector of the workspace’s embeddings model' }),
  state: Type.Union(
    STATES.map((state) => Type.Literal(state)),
    {
      description:
        '`full_text`: found by its words (no embeddings model is configured); `embedding`: vectors are being made (found by words meanwhile); `hybrid`: found by words and by meaning',
    },
  ),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  indexed_at: NullableField(Type.String({ format: 'date-time', description: 'When its chunks were last made' })),
};

export const KnowledgeSourceSchema = Type.Object(sourceFields, { $id: 'KnowledgeSource' });
export type KnowledgeSource = Static<typeof KnowledgeSourceSchema>;

export const KnowledgeChunkSchema = Type.Object(
  {
    id: Uuid(),
    position: Type.Integer({ description: 'Its place in the source, from 0' }),
    heading: Type.String({ description: 'The headings above it, outermost first, joined with " › "; empty when none' }),
    text: Type.String(),
    embedded: Type.Boolean({ description: 'Whether it has a vector of the workspace’s embeddings model' }),
  },
  { $id: 'KnowledgeChunk' },
);

export const KnowledgeSourceDetailSchema = Type.Object(
  {
    ...sourceFields,
    content: Type.String({ description: 'The answer or the document’s text; empty for templates and quick replies' }),
    chunks: Type.Array(Type.Ref(KnowledgeChunkSchema)),
  },
  { $id: 'KnowledgeSourceDetail' },
);
export type KnowledgeSourceDetail = Static<typeof KnowledgeSourceDetailSchema>;

export const KnowledgeSettingsSchema = Type.Object(
  {
    templates: Type.Boolean({ description: 'Whether the workspace’s approved templates are a source' }),
    quick_replies: Type.Boolean({ description: 'Whether the workspace’s quick replies are a source' }),
    embedding_model: NullableField(
      Type.String({
        description: 'The embeddings model the workspace’s AI model settings last answered with; null: none',
      }),
    ),
    document_max_bytes: Type.Integer({ description: 'The largest document, in bytes of UTF-8 text' }),
  },
  { $id: 'KnowledgeSettings' },
);
export type KnowledgeSettings = Static<typeof KnowledgeSettingsSchema>;

export const KnowledgeMatchSchema = Type.Object(
  {
    id: Uuid('The chunk’s id: cite it'),
    source_id: Uuid(),
    source_kind: Kind,
    source_title: Type.String(),
    heading: Type.String(),
    text: Type.String(),
    score: Type.Number({
      description: 'Reciprocal rank fusion of the full-text and vector ranks (Σ 1/(60 + rank)); higher is better',
    }),
    full_text_rank: NullableField(
      Type.Integer({ description: 'Its place among the full-text matches, from 1; null: not among them' }),
    ),
    vector_rank: NullableField(
      Type.Integer({ description: 'Its place among the nearest vectors, from 1; null: not among them' }),
    ),
    similarity: NullableField(
      Type.Number({ description: 'Cosine similarity of its vector and the question’s; null without' }),
    ),
  },
  { $id: 'KnowledgeMatch' },
);
export type KnowledgeMatch = Static<typeof KnowledgeMatchSchema>;

export const KnowledgeSearchResultSchema = Type.Object(
  {
    retrieval: Type.Union([Type.Literal('hybrid'), Type.Literal('full_text')], {
      description:
        '`hybrid`: full-text and vector ranks fused; `full_text`: words only (no embeddings model, or it did not answer)',
    }),
    chunks: Type.Array(Type.Ref(KnowledgeMatchSchema)),
  },
  { $id: 'KnowledgeSearchResult' },
);
export type KnowledgeSearchResult = Static<typeof KnowledgeSearchResultSchema>;

export const ListKnowledgeSourcesBody = Type.Object({ kind: Type.Optional(Kind) });
const SourceId = Uuid('The knowledge source (list-knowledge-sources)');
export const KnowledgeSourceIdBody = Type.Object({ source_id: SourceId });
export const CreateKnowledgeQaBody = Type.Object({ question: Question, answer: Answer });
export const CreateKnowledgeDocumentBody = Type.Object({
  title: Type.Optional(Title),
  content: Type.Optional(Content),
  format: Type.Optional(
    Type.Union(
      FORMATS.map((format) => Type.Literal(format)),
      { description: 'Default: markdown; an uploaded file’s is its extension’s' },
    ),
  ),
  file: Type.Optional(File),
});
export const UpdateKnowledgeSourceBody = Type.Object({
  source_id: SourceId,
  question: Type.Optional(Question),
  answer: Type.Optional(Answer),
  title: Type.Optional(Title),
  content: Type.Optional(Content),
  format: Type.Optional(
    Type.Union(
      FORMATS.map((format) => Type.Literal(format)),
      { description: 'A document’s format; omitted: kept (an uploaded file’s is its extension’s)' },
    ),
  ),
  file: Type.Optional(File),
});
export const UpdateKnowledgeSettingsBody = Type.Object({
  templates: Type.Optional(
    Type.Boolean({ description: 'true: the approved templates become a source; false: they stop being one' }),
  ),
  quick_replies: Type.Optional(
    Type.Boolean({ description: 'true: the quick replies become a source; false: they stop being one' }),
  ),
});
export const SearchKnowledgeBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 1000, description: 'A question or words, in any language' }),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: SEARCH_LIMIT_MAX,
      default: 5,
      description: `How many chunks, at most (default 5)`,
    }),
  ),
});

export type CreateKnowledgeDocumentInput = Static<typeof CreateKnowledgeDocumentBody>;
export type UpdateKnowledgeSourceInput = Static<typeof UpdateKnowledgeSourceBody>;
export type UpdateKnowledgeSettingsInput = Static<typeof UpdateKnowledgeSettingsBody>;
