import { errors } from '../shared/errors.js';
import { knowledgeProblems } from './knowledge.problems.js';
import { DOCUMENT_MAX_BYTES } from './knowledge.schema.js';

/** What a document is once its input is checked: its text, how it is written, and the file it came from. */
export interface DocumentText {
  content: string;
  format: 'markdown' | 'text';
  fileName: string | null;
}

const FORMAT_OF_EXTENSION: Record<string, 'markdown' | 'text'> = { md: 'markdown', markdown: 'markdown', txt: 'text' };
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const LIMIT_WORDS = `${DOCUMENT_MAX_BYTES / 1024} KiB`;

/**
 * A document's text from what was typed in (`content`) or uploaded (`file`): one of them, UTF-8 text
 * (no NUL, no invalid bytes; a byte-order mark dropped), at most DOCUMENT_MAX_BYTES. A file's format is
 * its extension's (.md, .markdown, .txt: anything else is refused).
 */
export function documentText(
  input: {
    content?: string | undefined;
    format?: 'markdown' | 'text' | undefined;
    file?: { name: string; data: string } | undefined;
  },
  defaultFormat: 'markdown' | 'text' = 'markdown',
): DocumentText | null {
  if (input.content !== undefined && input.file !== undefined) {
    throw errors.invalid(knowledgeProblems.problem('file', 'content_or_file'));
  }
  if (input.file) return uploaded(input.file);
  if (input.content === undefined) return null;
  if (Buffer.byteLength(input.content) > DOCUMENT_MAX_BYTES) {
    throw errors.invalid(knowledgeProblems.problem('content', 'document_too_large', { limit: LIMIT_WORDS }));
  }
  if (!input.content.trim()) throw errors.invalid(knowledgeProblems.problem('content', 'content_empty'));
  return { content: input.content, format: input.format ?? defaultFormat, fileName: null };
}

function uploaded(file: { name: string; data: string }): DocumentText {
  const extension = /\.([a-z]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const format = FORMAT_OF_EXTENSION[extension];
  if (!format) throw errors.invalid(knowledgeProblems.problem('file', 'file_type'));
  if (!BASE64.test(file.data)) throw errors.invalid(knowledgeProblems.problem('file', 'file_not_text'));
  const bytes = Buffer.from(file.data, 'base64');
  if (bytes.length > DOCUMENT_MAX_BYTES) {
    throw errors.invalid(knowledgeProblems.problem('file', 'document_too_large', { limit: LIMIT_WORDS }));
  }
  const content = utf8(bytes);
  if (content === null) throw errors.invalid(knowledgeProblems.problem('file', 'file_not_text'));
  if (!content.trim()) throw errors.invalid(knowledgeProblems.problem('file', 'content_empty'));
  return { content, format, fileName: file.name };
}

/** The bytes as text, or null when they are not UTF-8 text (invalid sequences, or NUL as binary files have). */
function utf8(bytes: Buffer): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}
