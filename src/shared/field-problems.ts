import type { FieldError } from './errors.js';

/** The names of a wording's `{{placeholders}}`. */
type Placeholders<S extends string> = S extends `${string}{{${infer Name}}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** A problem's values, by placeholder; none for a wording without placeholders. */
type ParamsOf<S extends string> = [Placeholders<S>] extends [never]
  ? []
  : [params: Record<Placeholders<S>, string | number>];

/** What test/problems.test.ts reads of each table. */
export interface FieldProblems {
  area: string;
  wordings: Readonly<Record<string, string>>;
}

/**
 * A domain's field problems: each rule's English wording (with `{{placeholders}}`) under a code that
 * stays. A problem carries the wording filled in as its `message`, beside its `code` (`area.code`) and
 * `params`, so the dashboard says it in the person's language from its catalogs
 * (web/src/locales/<language>/problems.json; test/problems.test.ts holds them to these tables). Each
 * domain keeps its table in its own `<name>.problems.ts`; `errors.invalid` and `errors.taken`
 * answer with them.
 */
export function fieldProblems<const T extends Record<string, string>>(area: string, wordings: T) {
  return {
    area,
    wordings: wordings as Readonly<Record<string, string>>,
    /** The problem of `field`: the rule `code` broken, worded with `params`. */
    problem<K extends keyof T & string>(field: string, code: K, ...[params]: ParamsOf<T[K]>): FieldError {
      return {
        field,
        message: fill(wordings[code]!, params ?? {}),
        code: `${area}.${code}`,
        ...(params && { params }),
      };
    },
  };
}

const fill = (wording: string, params: Record<string, string | number>) =>
  wording.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));
