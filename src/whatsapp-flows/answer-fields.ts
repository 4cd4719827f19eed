/**
 * What a WhatsApp Flow's answer holds, labelled for people. Meta's `response_json` carries the payload of
 * the Flow's `complete` action ("Receiving Flow Response": its structure is controlled by the Flow JSON):
 * each key is the payload's, and its value usually names an input component (`${form.day}`, or
 * `${screen.BOOKING.form.day}` for an earlier screen), whose `label` is what the customer read.
 */

/** A field of an answer: its name in Meta's `response_json`, its label, and its value as Meta sent it. */
export interface AnswerField {
  name: string;
  label: string;
  value: unknown;
}

/** A field a Flow's answer carries, as its Flow JSON labels it. */
export type FieldLabel = Omit<AnswerField, 'value'>;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object';

const FORM_REFERENCE = /^\$\{form\.([^.}]+)\}$/;
const SCREEN_REFERENCE = /^\$\{screen\.([^.}]+)\.form\.([^.}]+)\}$/;

/**
 * The fields a Flow's answers carry, in the form's order, each with the label of the component it comes
 * from (falling back to its name); none when the Flow JSON is unknown or unreadable. Without a `complete`
 * payload, the input components themselves.
 */
export function fieldLabelsOf(flowJson: string | null): FieldLabel[] {
  const screens = screensOf(flowJson);
  const labels = new Map(screens.map((screen) => [screen.id, inputLabels(screen)]));
  const anywhere = new Map<string, string>();
  for (const [name, label] of [...labels.values()].flatMap((screen) => [...screen])) {
    if (!anywhere.has(name)) anywhere.set(name, label);
  }
  const fields = new Map<string, string>();
  for (const screen of screens) {
    for (const [name, reference] of completePayloads(screen)) {
      const [, onScreen, input] = SCREEN_REFERENCE.exec(reference) ?? [];
      const own = FORM_REFERENCE.exec(reference)?.[1];
      const label =
        (onScreen && input && labels.get(onScreen)?.get(input)) ||
        (own && labels.get(screen.id)?.get(own)) ||
        anywhere.get(name) ||
        name;
      if (!fields.has(name)) fields.set(name, label);
    }
  }
  return [...(fields.size > 0 ? fields : anywhere)].map(([name, label]) => ({ name, label }));
}

/** An answer's fields, labelled: those the Flow JSON names in its order, then any other in Meta's. */
export function labelledFields(labels: FieldLabel[], values: Record<string, unknown>): AnswerField[] {
  const known = labels.filter((field) => Object.hasOwn(values, field.name));
  const named = new Set(known.map((field) => field.name));
  const others = Object.keys(values)
    .filter((name) => !named.has(name))
    .map((name) => ({ name, label: name }));
  return [...known, ...others].map((field) => ({ ...field, value: values[field.name] }));
}

interface Screen {
  id: string;
  layout: unknown;
}

function screensOf(flowJson: string | null): Screen[] {
  if (flowJson === null) return [];
  try {
    const screens = (JSON.parse(flowJson) as { screens?: unknown }).screens;
    return Array.isArray(screens)
      ? screens.filter(isObject).map((screen) => ({ id: String(screen.id), layout: screen.layout }))
      : [];
  } catch {
    return [];
  }
}

/** Every object in a screen's layout, depth first: components sit in forms, `If` and `Switch` branches. */
function* objectsIn(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const item of value) yield* objectsIn(item);
  else if (isObject(value)) {
    yield value;
    for (const child of Object.values(value)) yield* objectsIn(child);
  }
}

/** The screen's input components: name → label (a Footer has a label but no name). */
function inputLabels(screen: Screen): Map<string, string> {
  const labels = new Map<string, string>();
  for (const component of objectsIn(screen.layout)) {
    const { name, label } = component;
    if (typeof name === 'string' && typeof label === 'string' && !labels.has(name)) labels.set(name, label);
  }
  return labels;
}

/** The keys of the screen's `complete` actions' payloads, each with the reference it sends. */
function* completePayloads(screen: Screen): Generator<[string, string]> {
  for (const action of objectsIn(screen.layout)) {
    if (action.name !== 'complete' || !isObject(action.payload)) continue;
    for (const [key, value] of Object.entries(action.payload)) yield [key, typeof value === 'string' ? value : ''];
  }
}
