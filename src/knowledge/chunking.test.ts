import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHUNK_WORDS, chunkDocument, chunkPassage, OVERLAP_WORDS } from './chunking.js';

const countWords = (text: string) =>
  [...new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;

/** A paragraph of `n` numbered sentences of ten words each. */
const paragraph = (label: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${label} sentence ${i} has exactly ten words in it here.`).join(' ');

/** The longest start of `next` that ends `previous`. */
function longestOverlap(previous: string, next: string): string {
  for (let k = Math.min(previous.length, next.length); k > 0; k--) {
    if (previous.endsWith(next.slice(0, k))) return next.slice(0, k);
  }
  return '';
}

describe('knowledge chunking', () => {
  test('chunkDocument › Markdown headings make the path each chunk keeps; code fences are not headings', () => {
    const markdown = [
      'Intro before any heading.',
      '# Shipping',
      'We ship worldwide.',
      '## Costs',
      'Free above 50 €.',
      '```sh',
      '# not a heading',
      '```',
      '### Express ###',
      'Next day.',
      '## Times',
      'Two to five days.',
      '',
      'Returns',
      '=======',
      'Within 30 days.',
    ].join('\n');
    assert.deepEqual(chunkDocument(markdown, 'markdown'), [
      { heading: '', text: 'Intro before any heading.' },
      { heading: 'Shipping', text: 'We ship worldwide.' },
      { heading: 'Shipping › Costs', text: 'Free above 50 €.\n\n```sh\n# not a heading\n```' },
      { heading: 'Shipping › Costs › Express', text: 'Next day.' },
      { heading: 'Shipping › Times', text: 'Two to five days.' },
      { heading: 'Returns', text: 'Within 30 days.' },
    ]);
  });

  test('chunkDocument › plain text ignores what looks like Markdown', () => {
    assert.deepEqual(chunkDocument('# Not a heading\n\nJust text.', 'text'), [
      { heading: '', text: '# Not a heading\n\nJust text.' },
    ]);
  });

  test('chunkDocument › long sections are cut at sentences into chunks of a few hundred words that overlap', () => {
    const text = [paragraph('First', 30), paragraph('Second', 30)].join('\n\n');
    const chunks = chunkDocument(text, 'markdown');
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    for (const chunk of chunks) assert.ok(countWords(chunk.text) <= CHUNK_WORDS, `${countWords(chunk.text)} words`);
    for (const [i, chunk] of chunks.entries()) {
      if (i === 0) continue;
      const previous = chunks[i - 1]!.text;
      const overlap = longestOverlap(previous, chunk.text);
      assert.ok(
        countWords(overlap) >= 10 && countWords(overlap) <= OVERLAP_WORDS,
        `chunk ${i} starts with the last sentences of chunk ${i - 1}: ${countWords(overlap)} words`,
      );
    }
    // Every sentence is in some chunk.
    for (const label of ['First', 'Second']) {
      for (let i = 0; i < 30; i++) {
        assert.ok(
          chunks.some((c) => c.text.includes(`${label} sentence ${i} has`)),
          `${label} ${i}`,
        );
      }
    }
  });

  test('chunkPassage › a sentence longer than a chunk is cut between words, and the overlap is its last words', () => {
    const long = Array.from({ length: CHUNK_WORDS + 60 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkPassage('What is long?', long);
    assert.equal(chunks.length, 2);
    assert.ok(chunks.every((c) => c.heading === 'What is long?'));
    assert.equal(countWords(chunks[0]!.text), CHUNK_WORDS);
    const firstWords = chunks[0]!.text.split(' ');
    assert.ok(chunks[1]!.text.startsWith(firstWords.slice(-OVERLAP_WORDS).join(' ')));
    assert.ok(chunks[1]!.text.endsWith(`w${CHUNK_WORDS + 59}`));
  });

  test('chunkPassage › Chinese and Japanese without spaces are measured in words too', () => {
    const text = '営業時間は午前九時から午後六時までです。'.repeat(60);
    const chunks = chunkPassage('', text);
    assert.ok(chunks.length > 1);
    for (const chunk of chunks) assert.ok(countWords(chunk.text) <= CHUNK_WORDS);
  });
});
