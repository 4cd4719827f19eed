import type { FieldError } from './errors.js';
import { requestProblems } from './request.problems.js';

/** How deep objects and arrays may nest in JSON that Parley takes in; the outermost value is level 1. */
const MAX_JSON_DEPTH = 64;
/** Enough to show what is wrong; a body with more bad text is usually the wrong body. */
const MAX_PROBLEMS = 20;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units: no u flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Every character no engine stores alike: NUL and lone surrogates. */
const UNSTORABLE_TEXT = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, 'g');

/** The text with each character no engine stores alike (NUL, a lone surrogate) replaced by U+FFFD. */
export const makeStorable = (text: string): string => text.replace(UNSTORABLE_TEXT, '\ufffd');

/** A place in a parsed JSON value that Parley does not store, and why. */
export interface JsonProblem {
  /** Property names and array indexes from the outermost value down to the offending one. */
  path: string[];
  /** The problem, named by the field the caller calls that place. */
  at: (field: string) => FieldError;
}

/**
 * Why a text cannot be stored alike on both engines, or null: PostgreSQL refuses NUL and lone UTF-16
 * surrogates (which no UTF-8 text can hold), where SQLite would keep them or store mangled bytes.
 */
function textProblem(text: string): 'nul_character' | 'lone_surrogate' | null {
  if (text.includes('\u0000')) return 'nul_character';
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  return null;
}

/**
 * What keeps a parsed JSON value out of the database: text (values and property names) holding NUL
 * or a lone surrogate, and nesting deeper than MAX_JSON_DEPTH, which the code that walks stored
 * JSON (and PostgreSQL's own parser) need not survive. At most MAX_PROBLEMS; [] when all is well.
 */
export function unstorableJson(value: unknown): JsonProblem[] {
  const problems: JsonProblem[] = [];
  const visit = (node: unknown, path: string[], depth: number): void => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof node === 'string') {
      const rule = textProblem(node);
      if (rule) problems.push({ path, at: (field) => requestProblems.problem(field, rule) });
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (depth > MAX_JSON_DEPTH) {
      problems.push({
        path,
        at: (field) => requestProblems.problem(field, 'nests_too_deep', { levels: MAX_JSON_DEPTH }),
      });
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      const rule = textProblem(key);
      if (rule) problems.push({ path, at: (field) => requestProblems.problem(field, `name_${rule}`) });
      visit(child, [...path, key], depth + 1);
    }
  };
  visit(value, [], 1);
  return problems;
}
