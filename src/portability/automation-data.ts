import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { flowDefinitionProblems } from '../flows/index.js';
import { SequenceDefinitionSchema } from '../sequences/index.js';
import type { FieldError } from '../shared/errors.js';
import { registerFormats } from '../shared/formats.js';
import { importProblems } from './portability.problems.js';

registerFormats();

/**
 * Sequences and flows in the workspace document. Their definitions are the API's, except that a
 * template or flow is named (`template_name`, `flow_name`) instead of given by id: ids differ from
 * one workspace to the next, names are what a person copies between them.
 */
export const AutomationEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    definition: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'As save-sequence / save-flow take it, with `template_name` instead of `template_id` and `flow_name` instead of `flow_id`',
    }),
  },
  { additionalProperties: false },
);

type Json = Record<string, unknown>;
const REFERENCES = [
  { name: 'template_name', id: 'template_id' },
  { name: 'flow_name', id: 'flow_id' },
] as const;
/** Stands in for a named reference while the shape is checked (the name itself is checked apart). */
const PLACEHOLDER_ID = '00000000-0000-7000-8000-000000000000';

/** A copy of `value` with every object's reference keys rewritten by `rewrite`. */
function mapReferences(value: unknown, rewrite: (object: Json) => Json): unknown {
  if (Array.isArray(value)) return value.map((item) => mapReferences(item, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  const mapped = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, mapReferences(child, rewrite)]));
  return rewrite(mapped);
}

/** Names → ids, for writing; an unknown name is left for the checks to report. */
export function withIds(definition: Json, ids: { templates: Map<string, string>; flows: Map<string, string> }): Json {
  return mapReferences(definition, (object) => {
    const copy = { ...object };
    for (const { name, id } of REFERENCES) {
      if (typeof copy[name] !== 'string') continue;
      const table = name === 'template_name' ? ids.templates : ids.flows;
      copy[id] = table.get(copy[name]) ?? PLACEHOLDER_ID;
      delete copy[name];
    }
    return copy;
  }) as Json;
}

/** Ids → names, for the exported document. */
export function withNames(
  definition: Json,
  names: { templates: Map<string, string>; flows: Map<string, string> },
): Json {
  return mapReferences(definition, (object) => {
    const copy = { ...object };
    for (const { name, id } of REFERENCES) {
      if (typeof copy[id] !== 'string') continue;
      const table = id === 'template_id' ? names.templates : names.flows;
      copy[name] = table.get(copy[id]) ?? copy[id];
      delete copy[id];
    }
    return copy;
  }) as Json;
}

/** Names a definition refers to that neither the workspace nor the document defines. */
function unknownReferences(definition: unknown, path: string, known: { templates: Set<string>; flows: Set<string> }) {
  const problems: FieldError[] = [];
  const visit = (value: unknown, at: string) => {
    if (Array.isArray(value)) return value.forEach((item, i) => visit(item, `${at}/${i}`));
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === 'template_name' && !known.templates.has(String(child))) {
        problems.push(importProblems.problem(`${at}/${key}`, 'unknown_template'));
      } else if (key === 'flow_name' && !known.flows.has(String(child))) {
        problems.push(importProblems.problem(`${at}/${key}`, 'unknown_flow'));
      } else visit(child, `${at}/${key}`);
    }
  };
  visit(definition, path);
  return problems;
}

/** Every problem of the document's sequences and flows, by JSON Pointer, before anything is written. */
export function automationProblems(
  document: { sequences?: { definition: Json }[]; flows?: { definition: Json }[] },
  known: { templates: Set<string>; flows: Set<string> },
): FieldError[] {
  const placeholders = { templates: new Map<string, string>(), flows: new Map<string, string>() };
  const problems: FieldError[] = [];
  document.sequences?.forEach(({ definition }, i) => {
    const path = `/sequences/${i}/definition`;
    problems.push(...unknownReferences(definition, path, known));
    const seen = new Set<string>();
    for (const error of Value.Errors(SequenceDefinitionSchema, withIds(definition, placeholders))) {
      const field = `${path}${error.path}`;
      if (!seen.has(field)) problems.push({ field, message: error.message });
      seen.add(field);
    }
  });
  document.flows?.forEach(({ definition }, i) => {
    const path = `/flows/${i}/definition`;
    problems.push(...unknownReferences(definition, path, known));
    for (const problem of flowDefinitionProblems(withIds(definition, placeholders))) {
      problems.push({ ...problem, field: `${path}${problem.field}` });
    }
  });
  return problems;
}
