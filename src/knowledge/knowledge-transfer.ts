import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FieldError } from '../shared/errors.js';
import { knowledgeProblems } from './knowledge.problems.js';
import type { SourceRow } from './knowledge.repository.js';
import { DOCUMENT_MAX_BYTES, FORMATS, SOURCES_MAX } from './knowledge.schema.js';

/**
 * The knowledge as the workspace-data document carries it (`parley export` / `parley import`): what a team
 * typed or uploaded — Q&A pairs and documents — and whether templates and quick replies are sources.
 * Chunks and vectors are not carried: they are rebuilt from the text where it is imported.
 */

/** Text a person typed: not empty and not only spaces (the service trims it). */
const NOT_BLANK = '\\S';
const Text = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: NOT_BLANK, description });
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const PortableQaSchema = Type.Object(
  {
    kind: Type.Literal('qa'),
    question: Text(500, 'The question; a Q&A pair of the workspace with the same question is replaced'),
    answer: Text(10_000, 'The answer'),
  },
  { additionalProperties: false, description: 'A Q&A pair' },
);

const PortableDocumentSchema = Type.Object(
  {
    kind: Type.Literal('document'),
    title: Text(200, 'The title; a document of the workspace with the same title is replaced'),
    content: Text(
      DOCUMENT_MAX_BYTES,
      `Its text, headings included, at most ${DOCUMENT_MAX_BYTES / 1024} KiB of UTF-8, as typed or uploaded`,
    ),
    format: Type.Union(
      FORMATS.map((format) => Type.Literal(format)),
      { description: '`markdown`: its headings make the path each chunk keeps; `text`: plain paragraphs' },
    ),
    file_name: Type.Optional(
      OrNull(Type.String({ minLength: 1, maxLength: 240, description: 'The uploaded file’s name' })),
    ),
  },
  { additionalProperties: false, description: 'A text or Markdown document' },
);

export const PortableKnowledgeSchema = Type.Object(
  {
    templates: Type.Optional(Type.Boolean({ description: 'Whether the approved templates are a source' })),
    quick_replies: Type.Optional(Type.Boolean({ description: 'Whether the quick replies are a source' })),
    sources: Type.Optional(
      Type.Array(Type.Union([PortableQaSchema, PortableDocumentSchema]), {
        maxItems: SOURCES_MAX,
        description: 'Q&A pairs (matched by question) and documents (by title), oldest first; others are kept',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The AI teammate’s knowledge; chunks and vectors are rebuilt on import. The AI model’s settings are not carried (its key is a secret, its endpoint belongs to a deployment)',
  },
);
export type PortableKnowledge = Static<typeof PortableKnowledgeSchema>;
export type PortableSource = NonNullable<PortableKnowledge['sources']>[number];

/** A source row as the document carries it. */
export function portableSource(row: SourceRow): PortableSource {
  if (row.kind === 'qa') return { kind: 'qa', question: row.title, answer: row.content };
  return {
    kind: 'document',
    title: row.title,
    content: row.content,
    format: row.format,
    ...(row.file_name !== null && { file_name: row.file_name }),
  };
}

/** The row fields a carried source is written as (trimmed as the API trims them). */
export function sourceFields(
  entry: PortableSource,
): Pick<SourceRow, 'kind' | 'title' | 'content' | 'format' | 'file_name'> {
  if (entry.kind === 'qa') {
    return { kind: 'qa', title: entry.question.trim(), content: entry.answer, format: 'text', file_name: null };
  }
  return {
    kind: 'document',
    title: entry.title.trim(),
    content: entry.content,
    format: entry.format,
    file_name: entry.file_name ?? null,
  };
}

/** What the schema cannot say of carried sources: a document's size is in bytes, not characters. */
export function portableKnowledgeProblems(knowledge: PortableKnowledge, path: string): FieldError[] {
  const problems: FieldError[] = [];
  knowledge.sources?.forEach((entry, i) => {
    if (entry.kind === 'document' && Buffer.byteLength(entry.content) > DOCUMENT_MAX_BYTES) {
      const limit = `${DOCUMENT_MAX_BYTES / 1024} KiB`;
      problems.push(knowledgeProblems.problem(`${path}/sources/${i}/content`, 'document_too_large', { limit }));
    }
  });
  return problems;
}

/** Matches a carried source with the workspace's: by kind and question or title. */
export const matchKey = (row: Pick<SourceRow, 'kind' | 'title'>) => `${row.kind}\u0000${row.title}`;
