import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchExpression, rankingWords } from './full-text.js';

describe('knowledge full-text ranking words', () => {
  test('rankingWords › a word in more than half of a large workspace’s chunks is left out of the ranking', () => {
    const words = [
      { word: 'the', chunks: 9_800 },
      { word: 'refund', chunks: 40 },
      { word: 'zebra', chunks: 0 },
    ];
    assert.deepEqual(rankingWords(words, 10_000), ['refund']);
  });

  test('rankingWords › when every word is that common, the rarest still ranks; a small workspace keeps them all', () => {
    assert.deepEqual(
      rankingWords(
        [
          { word: 'the', chunks: 9_800 },
          { word: 'is', chunks: 7_000 },
        ],
        10_000,
      ),
      ['is'],
    );
    assert.deepEqual(
      rankingWords(
        [
          { word: 'shop', chunks: 12 },
          { word: 'refund', chunks: 1 },
        ],
        13,
      ),
      ['shop', 'refund'],
    );
    assert.deepEqual(rankingWords([{ word: 'zebra', chunks: 0 }], 10_000), []);
  });

  test('matchExpression › the workspace’s token and any word, each quoted so none reads as an operator', () => {
    assert.equal(
      matchExpression('0193a0b0-0000-7000-8000-000000000001', ['or', 'say "hi"']),
      'scope : w0193a0b0000070008000000000000001 AND ("or" OR "say ""hi""")',
    );
  });
});
