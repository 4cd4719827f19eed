import type SQLite from 'better-sqlite3';

/**
 * Digits in contacts (phones, and numbers inside names and emails) are indexed (SQLite) as 4-digit
 * grams. A trigram index suits letters, but with only 1,000 digit trigrams each one occurs in ~1 %
 * of all phones, while each of the 10,000 4-digit grams occurs in ~0.1 %: a digit search reads a
 * tenth as much. Grams never span two digit runs ("ab12-34" holds no gram).
 */
export const DIGIT_GRAM_LENGTH = 4;

/** The SQL function the digit-gram triggers call; registered on every SQLite connection. */
export const DIGIT_GRAMS_FUNCTION = 'parley_digit_grams';

/** The distinct 4-digit grams of every digit run in `texts`, space-separated: "+14155" → "1415 4155". */
export function digitGrams(...texts: (string | null)[]): string {
  const grams = new Set<string>();
  for (const text of texts) {
    for (const [run] of (text ?? '').matchAll(/\d{4,}/g)) {
      for (let i = 0; i + DIGIT_GRAM_LENGTH <= run.length; i++) grams.add(run.slice(i, i + DIGIT_GRAM_LENGTH));
    }
  }
  return [...grams].join(' ');
}

/** An FTS5 query for texts holding every gram of `digits` (candidates: the order is checked after). */
export function digitGramQuery(digits: string): string {
  return digitGrams(digits)
    .split(' ')
    .map((gram) => `"${gram}"`)
    .join(' AND ');
}

export function registerDigitGrams(database: SQLite.Database): void {
  database.function(DIGIT_GRAMS_FUNCTION, { deterministic: true, varargs: true }, (...texts: unknown[]) =>
    digitGrams(...texts.map((text) => (typeof text === 'string' ? text : null))),
  );
}
