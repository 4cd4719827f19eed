import { render, type RenderScope } from '../../automation/render.js';
import { errors } from '../../shared/errors.js';
import { type VariableSlot, COUPON_CODE } from '../../templates/index.js';
import type { SendTemplateInput } from '../message.schema.js';
import { messageProblems } from '../message.problems.js';

type VariableFields = Pick<SendTemplateInput, 'variables' | 'button_variables'>;

/** A template's variables in either form a sender gives them (keyed by variable id, or the body's in order). */
export type TemplateVariables = NonNullable<SendTemplateInput['variables']>;

/** The values of the variables, whichever form they were given in. */
export const variableValues = (variables: TemplateVariables): string[] =>
  Array.isArray(variables) ? variables : Object.values(variables);

/**
 * The variables with each value mapped, in the form they were given: how campaigns, sequences and flows
 * fill `{{contact.name}}`-style placeholders per recipient.
 */
export function mapVariables(variables: TemplateVariables, map: (value: string) => string): TemplateVariables {
  if (Array.isArray(variables)) return variables.map(map);
  return Object.fromEntries(Object.entries(variables).map(([id, value]) => [id, map(value)]));
}

/**
 * The one rule by which every template send (the API and the dashboard's forms, campaigns, sequences,
 * flows) fills per-recipient placeholders such as `{{contact.first_name}}` in its variables: render's.
 */
export function fillVariables(variables: TemplateVariables, scope: RenderScope): TemplateVariables {
  return mapVariables(variables, (value) => render(value, scope));
}

/**
 * The value of every variable the translation takes, keyed by slot id, from the one variable map
 * (`variables`, keyed by the ids template-variables lists, or an array of the body's values in order)
 * and the older `button_variables` (URL buttons' suffixes in button order). Too few, unknown or empty
 * values are refused here, with the list of what the template needs, before anything is queued.
 */
export function templateVariableValues(slots: VariableSlot[], input: VariableFields): Map<string, string> {
  const given = new Map<string, string>();
  const unknown: string[] = [];
  const put = (field: string, id: string, value: string) => {
    if (given.has(id)) throw errors.invalid(messageProblems.problem(field, 'variable_given_twice', { variable: id }));
    if (value.trim() === '') throw errors.invalid(messageProblems.problem(field, 'variable_empty', { variable: id }));
    given.set(id, value);
  };

  const body = slots.filter((slot) => slot.part === 'body');
  const { variables } = input;
  if (Array.isArray(variables)) {
    // The array form names the body's values only, in order, as before the map existed.
    if (variables.length !== body.length) {
      throw mismatch('variables', slots, inOrder(body, variables), variables.length);
    }
    variables.forEach((value, i) => put('variables', body[i]!.id, value));
  } else {
    for (const [id, value] of Object.entries(variables ?? {})) {
      if (slots.some((slot) => slot.id === id)) put('variables', id, value);
      else unknown.push(id);
    }
  }

  if (input.button_variables !== undefined) {
    const urlSlots = slots.filter((slot) => slot.part === 'button' && slot.placeholder !== COUPON_CODE);
    if (input.button_variables.length !== urlSlots.length) {
      throw mismatch(
        'button_variables',
        urlSlots,
        inOrder(urlSlots, input.button_variables),
        input.button_variables.length,
      );
    }
    input.button_variables.forEach((value, i) => put('button_variables', urlSlots[i]!.id, value));
  }

  const givenCount = given.size + unknown.length;
  if (unknown.length > 0 || given.size !== slots.length) throw mismatch('variables', slots, given, givenCount, unknown);
  return given;
}

/** Values given in order, by the slot each fills: a list too short still gives its first slots (not missing). */
function inOrder(slots: VariableSlot[], values: string[]): Map<string, string> {
  return new Map(slots.slice(0, values.length).map((slot, i) => [slot.id, values[i]!]));
}

function mismatch(
  field: string,
  slots: VariableSlot[],
  given: Map<string, string>,
  count: number,
  unknown: string[] = [],
) {
  return errors.templateVariablesMismatch(field, {
    needed: slots.map((slot) => slot.id),
    given: count,
    missing: slots.filter((slot) => !given.has(slot.id)).map((slot) => slot.id),
    unknown,
  });
}
