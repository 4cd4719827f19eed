import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_START_KEYWORDS,
  DEFAULT_STOP_KEYWORDS,
  confirmationText,
  keywordIntent,
  normalizeKeyword,
} from './opt-out.keywords.js';

const defaults = { stop: DEFAULT_STOP_KEYWORDS, start: DEFAULT_START_KEYWORDS };

describe('opt-out keywords', () => {
  test('normalizeKeyword › case, accents, surrounding punctuation and repeated spaces do not count', () => {
    assert.equal(normalizeKeyword('  Arrêt !! '), 'ARRET');
    assert.equal(normalizeKeyword('stop   promotions.'), 'STOP PROMOTIONS');
    assert.equal(normalizeKeyword('🛑'), '');
  });

  test('keywordIntent › only a whole message is a keyword, answered in its own language', () => {
    assert.deepEqual(keywordIntent('baja', defaults), { action: 'stop', language: 'es' });
    assert.deepEqual(keywordIntent('Stop promotions', defaults), { action: 'stop', language: 'en' });
    assert.deepEqual(keywordIntent('alta', defaults), { action: 'start', language: 'es' });
    assert.equal(keywordIntent('stop it please', defaults), null);
    assert.equal(keywordIntent('', defaults), null);
    assert.deepEqual(keywordIntent('halt', { stop: ['HALT'], start: [] }), { action: 'stop', language: 'en' });
  });

  test("confirmationText › names the language's resume word from the workspace's list, or none when the list is empty", () => {
    assert.match(confirmationText('es', DEFAULT_START_KEYWORDS), /Responde ALTA para volver a suscribirte\.$/);
    assert.match(confirmationText('es', ['Volver']), /Responde Volver /);
    assert.equal(
      confirmationText('en', []),
      'You are unsubscribed and will no longer receive marketing messages from us.',
    );
  });
});
