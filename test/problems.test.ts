import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DASHBOARD_LANGUAGES } from '../src/shared/languages.js';
import type { FieldProblems } from '../src/shared/field-problems.js';

/**
 * Every field problem Parley's own rules answer with (the `<name>.problems.ts` tables) is in the
 * dashboard's catalogs: English word for word as the API says it, and every other language with each
 * code and nothing more, so a person reads each problem in their language.
 */
const ROOT = path.join(import.meta.dirname, '..');
const tableFiles = fs
  .readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.problems.ts'));

async function tables(): Promise<FieldProblems[]> {
  const found: FieldProblems[] = [];
  for (const file of tableFiles) {
    const module = (await import(pathToFileURL(path.join(ROOT, 'src', file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (value && typeof value === 'object' && 'area' in value && 'wordings' in value)
        found.push(value as FieldProblems);
    }
  }
  return found;
}

const catalog = (language: string) =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'web', 'src', 'locales', language, 'problems.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >;

test('the English catalog words each problem as the API does, and has no other', async () => {
  const all = await tables();
  assert.ok(all.length >= tableFiles.length, `a table in each of ${tableFiles.join(', ')}`);
  const areas = all.map((table) => table.area);
  assert.deepEqual(areas, [...new Set(areas)], 'each area has one table');
  const fromCode = Object.fromEntries(all.map((table) => [table.area, { ...table.wordings }]));
  assert.deepEqual(catalog('en'), fromCode);
});

for (const language of DASHBOARD_LANGUAGES.filter((code) => code !== 'en')) {
  test(`${language}: every problem is translated, and no placeholder is one English lacks`, () => {
    const english = catalog('en');
    const translated = catalog(language);
    const problems: string[] = [];
    for (const [area, wordings] of Object.entries(english)) {
      for (const [code, wording] of Object.entries(wordings)) {
        const text = translated[area]?.[code];
        if (!text?.trim()) problems.push(`${area}.${code} is missing`);
        const names = (s: string) => new Set([...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
        for (const name of names(text ?? '')) {
          if (!names(wording).has(name)) problems.push(`${area}.${code} has {{${name}}}, which English has not`);
        }
      }
    }
    for (const [area, wordings] of Object.entries(translated)) {
      for (const code of Object.keys(wordings))
        if (!english[area]?.[code]) problems.push(`${area}.${code} is not in English`);
    }
    assert.deepEqual(problems, []);
  });
}
