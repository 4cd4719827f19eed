/**
 * The words the full-text index takes and a search looks for, made here rather than by each engine's
 * tokenizer so that SQLite (FTS5) and PostgreSQL (the 'simple' text search configuration) index the very
 * same words: lower case; accents folded (é → e, ã → a, ά → α) but not the marks other scripts spell with
 * (Devanagari's vowel signs stay); split into words by ICU's word boundaries (Intl.Segmenter), which also
 * splits Chinese, Japanese and Thai, written without spaces; punctuation inside a word ("don't",
 * "bar.com") becomes a space, so neither engine's own parser sees anything but letters and digits.
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
/** Latin, Greek and Cyrillic accents once decomposed (Unicode's "Combining Diacritical Marks" block). */
const COMBINING_ACCENTS = /[\u0300-\u036f]/g;
/** Anything but letters, marks and digits. */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu;
/** A search uses at most this many distinct words of the question. */
export const QUERY_WORDS_MAX = 32;

/** Lower case with accents folded; other marks kept. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(COMBINING_ACCENTS, '').normalize('NFC').toLowerCase();
}

/** The indexable words of a text, in order (repeats kept: they weigh in the ranking). */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const segment of segmenter.segment(fold(text))) {
    if (!segment.isWordLike) continue;
    for (const part of segment.segment.split(NOT_WORD)) if (part) words.push(part);
  }
  return words;
}

/** What a chunk's `search_text` holds: its heading's and text's words, space-separated. */
export function searchTextOf(heading: string, text: string): string {
  return wordsOf(`${heading}\n${text}`).join(' ');
}

/** The distinct words of a question a search looks for, in the order asked. */
export function queryWordsOf(question: string): string[] {
  return [...new Set(wordsOf(question))].slice(0, QUERY_WORDS_MAX);
}

/** The token that holds a workspace's chunks together in both engines' indexes (see migration 0063). */
export const scopeTokenOf = (workspaceId: string) => `w${workspaceId.replaceAll('-', '').toLowerCase()}`;
