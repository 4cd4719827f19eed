import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fold, queryWordsOf, searchTextOf, wordsOf } from './search-text.js';

describe('knowledge search text', () => {
  test('fold › lower case with Latin, Greek and Cyrillic accents folded', () => {
    assert.equal(fold('Ça VA? Não, Ωράριο, ёлка, İstanbul'), 'ca va? nao, ωραριο, елка, istanbul');
  });

  test('wordsOf › keeps the marks other scripts spell with, and splits scripts written without spaces', () => {
    assert.deepEqual(wordsOf('खुलने का समय'), ['खुलने', 'का', 'समय']);
    assert.deepEqual(wordsOf('営業時間は9時から'), ['営業', '時間', 'は', '9', '時', 'から']);
    assert.deepEqual(wordsOf('ร้านเปิดกี่โมง'), ['ร้าน', 'เปิด', 'กี่', 'โมง']);
    assert.deepEqual(wordsOf('ساعات العمل'), ['ساعات', 'العمل']);
  });

  test('wordsOf › punctuation inside a word becomes a word boundary', () => {
    assert.deepEqual(wordsOf("Don't e-mail foo@bar.com, 12.5 %"), [
      'don',
      't',
      'e',
      'mail',
      'foo',
      'bar',
      'com',
      '12',
      '5',
    ]);
  });

  test('searchTextOf and queryWordsOf › the heading counts, and a question asks each word once', () => {
    assert.equal(searchTextOf('Horário', 'Abrimos às 9h'), 'horario abrimos as 9h');
    assert.deepEqual(queryWordsOf('When? when, WHEN is it open?'), ['when', 'is', 'it', 'open']);
  });
});
