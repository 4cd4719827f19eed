import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { parseEmail, parsePhone } from '../contacts/index.js';
import { portableKnowledgeProblems } from '../knowledge/index.js';
import { AppError, errors, type FieldError } from '../shared/errors.js';
import { unstorableJson } from '../shared/storable-json.js';
import { headerProblem } from '../templates/index.js';
import { importProblems } from './portability.problems.js';
import { NOT_BLANK, WorkspaceDataSchema, type WorkspaceData } from './workspace-data.schema.js';

/** At most this many problems are reported; a file with more is usually the wrong file. */
const MAX_PROBLEMS = 20;

/**
 * Checks a document against the workspace-data schema and every rule the import's writes enforce,
 * so a bad file is refused before anything is written. Each problem names its JSON Pointer path.
 */
export function validateWorkspaceData(document: unknown): WorkspaceData {
  const problems = [...unstorableText(document), ...schemaProblems(document)];
  if (problems.length === 0) problems.push(...ruleProblems(document as WorkspaceData));
  if (problems.length > 0) throw errors.invalid(...capped(problems));
  return document as WorkspaceData;
}

function capped(problems: FieldError[]): FieldError[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [
    ...problems.slice(0, MAX_PROBLEMS),
    importProblems.problem('/', 'more_problems', { count: problems.length - MAX_PROBLEMS }),
  ];
}

/** Schema violations, one per path (TypeBox reports a missing property twice: required, then type). */
function schemaProblems(document: unknown): FieldError[] {
  const byPath = new Map<string, string>();
  for (const error of [...Value.Errors(WorkspaceDataSchema, document)].flatMap(withChosenVariant)) {
    const field = error.path || '/';
    if (!byPath.has(field)) byPath.set(field, describeSchemaError(error));
  }
  return [...byPath].map(([field, message]) => ({ field, message }));
}

/**
 * A union of objects each known by its one property (a campaign's audience) or by its `kind` (a
 * knowledge source): when the value names one of them, that variant's own errors say what is wrong,
 * with their paths.
 */
function withChosenVariant(error: ValueError): ValueError[] {
  if (error.type !== ValueErrorType.Union) return [error];
  const variants = (error.schema.anyOf ?? []) as TSchema[];
  const iterator = error.errors[chosenVariant(variants, error.value)];
  return iterator ? [...iterator].flatMap(withChosenVariant) : [error];
}

/** The variant a value names, by its `kind` or by its one property; -1 when it names none. */
function chosenVariant(variants: TSchema[], value: unknown): number {
  if (typeof value !== 'object' || value === null) return -1;
  const kind = (value as { kind?: unknown }).kind;
  const kindOf = (v: TSchema) => (v.properties as Record<string, TSchema> | undefined)?.kind?.const as unknown;
  const byKind = variants.findIndex((v) => v.type === 'object' && kindOf(v) === kind);
  if (kind !== undefined && byKind >= 0) return byKind;
  const keys = Object.keys(value);
  if (keys.length !== 1) return -1;
  return variants.findIndex((v) => v.type === 'object' && keys[0]! in (v.properties ?? {}));
}

type Describe = (schema: TSchema) => string;

/** Messages that say what the field must be, by TypeBox error type; others keep TypeBox's message. */
const MESSAGES: Partial<Record<ValueErrorType, Describe>> = {
  [ValueErrorType.ObjectAdditionalProperties]: () => 'is not a known property',
  [ValueErrorType.ObjectRequiredProperty]: () => 'is required',
  [ValueErrorType.Literal]: (schema) => `must be ${JSON.stringify(schema.const)}`,
  [ValueErrorType.StringMaxLength]: (schema) => `must be at most ${String(schema.maxLength)} characters`,
  [ValueErrorType.StringMinLength]: (schema) =>
    schema.minLength === 1 ? 'must not be empty' : `must be at least ${String(schema.minLength)} characters`,
  [ValueErrorType.StringPattern]: (schema) =>
    schema.pattern === NOT_BLANK ? 'must not be blank' : `must match the pattern ${String(schema.pattern)}`,
  [ValueErrorType.ArrayMaxItems]: (schema) => `must have at most ${String(schema.maxItems)} items`,
  [ValueErrorType.ArrayMinItems]: (schema) =>
    `must have at least ${String(schema.minItems)} item${schema.minItems === 1 ? '' : 's'}`,
  [ValueErrorType.StringFormat]: (schema) =>
    schema.format === 'date-time'
      ? 'must be an ISO 8601 time with an offset, e.g. 2030-01-15T09:00:00+00:00'
      : `must be a ${String(schema.format)}`,
  [ValueErrorType.String]: () => 'must be a string',
  [ValueErrorType.Boolean]: () => 'must be true or false',
  [ValueErrorType.Object]: () => 'must be an object',
  [ValueErrorType.Array]: () => 'must be an array',
};

/** What the field must be, rather than TypeBox's "Expected union value". */
function describeSchemaError(error: ValueError): string {
  if (error.type === ValueErrorType.Union) return describeUnion(error);
  return MESSAGES[error.type]?.(error.schema) ?? error.message;
}

/** Unions here are a set of literals (an enum), objects known by their one property, or a nullable value. */
function describeUnion(error: ValueError): string {
  const variants = (error.schema.anyOf ?? []) as TSchema[];
  const literals = variants.filter((v) => v.const !== undefined).map((v) => String(v.const));
  if (literals.length > 0 && literals.length === variants.length) return `must be one of ${literals.join(', ')}`;
  if (variants.every((v) => v.type === 'object')) {
    const keys = variants.flatMap((v) => Object.keys((v.properties ?? {}) as object));
    return `must be an object with exactly one of ${keys.join(', ')}`;
  }
  const nonNull = error.errors
    .map((iterator) => iterator.First())
    .find((e): e is ValueError => e !== undefined && e.type !== ValueErrorType.Null);
  return nonNull ? `${describeSchemaError(nonNull)} (or null)` : error.message;
}

/** Text PostgreSQL would refuse half-way through the import, and nesting too deep, by JSON Pointer. */
function unstorableText(document: unknown): FieldError[] {
  return unstorableJson(document).map(({ path, at }) => at(jsonPointer(path)));
}

function jsonPointer(path: string[]): string {
  return path.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('') || '/';
}

/** Rules beyond the schema that the services would otherwise enforce only while writing. */
function ruleProblems(data: WorkspaceData): FieldError[] {
  const problems: FieldError[] = [];
  const check = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(...error.fieldErrors);
    }
  };
  data.templates?.forEach((template, i) =>
    template.translations.forEach((t, j) => {
      // The template service's rule, reported with the file's path before anything is written.
      const problem = headerProblem(t);
      if (problem) problems.push({ field: `/templates/${i}/translations/${j}/header_content`, message: problem });
    }),
  );
  if (data.knowledge) problems.push(...portableKnowledgeProblems(data.knowledge, '/knowledge'));
  data.contacts?.forEach((contact, i) => {
    check(() => parsePhone(contact.phone, `/contacts/${i}/phone`));
    if (contact.email !== undefined) check(() => parseEmail(contact.email!, `/contacts/${i}/email`));
  });
  return problems;
}
