import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DASHBOARD_LANGUAGES } from '../src/shared/languages.js';
import { ERROR_CODES } from '../src/shared/errors.js';

/**
 * The dashboard's catalogs (web/src/locales) are complete in every language it offers: each English key
 * is there, with every plural form the language has (Arabic has six) and the same placeholders, and no
 * language has a key English lacks (a renamed key left behind). English keys are typed in the code, so
 * a key the code uses and English lacks fails `npm run check`.
 */
const LOCALES = path.join(import.meta.dirname, '..', 'web', 'src', 'locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Catalog = Record<string, string>;

/** A namespace's catalog with nested keys flattened to `a.b.c`. */
function catalog(language: string, namespace: string): Catalog {
  const flat: Catalog = {};
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === 'string') flat[prefix] = value;
    else for (const [key, inner] of Object.entries(value as object)) walk(inner, prefix ? `${prefix}.${key}` : key);
  };
  walk(JSON.parse(fs.readFileSync(path.join(LOCALES, language, `${namespace}.json`), 'utf8')), '');
  return flat;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([\w.]+)/g)].map((match) => match[1]!));
const namespaces = fs.readdirSync(path.join(LOCALES, 'en')).map((file) => path.basename(file, '.json'));

/** Keys without their plural suffix: `sessions_one` and `sessions_other` are the one key `sessions`. */
function baseKeys(entries: Catalog): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const key of Object.keys(entries)) {
    const base = key.replace(PLURAL, '');
    keys.set(base, [...(keys.get(base) ?? []), key]);
  }
  return keys;
}

test('every language has the same catalogs as English', () => {
  for (const language of DASHBOARD_LANGUAGES) {
    const files = fs.readdirSync(path.join(LOCALES, language)).map((file) => path.basename(file, '.json'));
    assert.deepEqual(files.sort(), [...namespaces].sort(), `web/src/locales/${language}`);
  }
});

for (const language of DASHBOARD_LANGUAGES.filter((code) => code !== 'en')) {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  test(`${language}: every English key, with its plural forms and placeholders, and nothing else`, () => {
    const problems: string[] = [];
    for (const namespace of namespaces) {
      const english = catalog('en', namespace);
      const translated = catalog(language, namespace);
      const englishKeys = baseKeys(english);
      const translatedKeys = baseKeys(translated);
      for (const [base, forms] of englishKeys) {
        const where = `${namespace}:${base}`;
        const own = translatedKeys.get(base);
        if (!own) {
          problems.push(`${where} is missing`);
          continue;
        }
        const plural = forms.some((key) => PLURAL.test(key));
        if (plural) {
          const missing = categories.filter((category) => !(`${base}_${category}` in translated));
          if (missing.length > 0) problems.push(`${where} lacks the plural forms ${missing.join(', ')}`);
        } else if (own.length !== 1 || own[0] !== base) {
          problems.push(`${where} is not plural in English`);
        }
        const expected = placeholders(english[plural ? `${base}_other` : base] ?? '');
        for (const key of own) {
          const text = translated[key]!;
          if (!text.trim()) problems.push(`${namespace}:${key} is empty`);
          const found = placeholders(text);
          // A plural form may spell its number out (Arabic's "two sessions"), so it may leave out {{count}}.
          // A field problem may leave out a value that reads only in English (a resource's name).
          const needed = [...expected].filter(
            (name) => namespace !== 'problems' && !(plural && name === 'count' && !key.endsWith('_other')),
          );
          for (const name of needed) if (!found.has(name)) problems.push(`${namespace}:${key} lacks {{${name}}}`);
          for (const name of found)
            if (!expected.has(name)) problems.push(`${namespace}:${key} has {{${name}}}, which English has not`);
        }
      }
      for (const base of translatedKeys.keys()) {
        if (!englishKeys.has(base)) problems.push(`${namespace}:${base} is not in English`);
      }
    }
    assert.deepEqual(problems, []);
  });
}

test('every error code the API answers has a message in the catalogs (shown instead of the API’s English)', () => {
  const messages = catalog('en', 'errors');
  const missing = Object.keys(ERROR_CODES).filter((code) => !(`codes.${code}` in messages));
  assert.deepEqual(missing, [], 'web/src/locales/en/errors.json codes');
});
