import { Type, type Static } from '@sinclair/typebox';
import { render, type RenderScope } from '../automation/render.js';
import { errors, type FieldError } from '../shared/errors.js';
import { flowsEndpointProblems } from './flows-endpoint.problems.js';

/** Meta's screen that ends a Flow ("Final Response Payload"): the answer carries the send's `flow_token`. */
export const FINISH = 'SUCCESS';

/** A screen's id as Flow JSON names it. */
const SCREEN_ID = Type.String({ pattern: '^[A-Za-z0-9_]+$', minLength: 1, maxLength: 100 });

/**
 * One row of a number's screen table: when the customer submits `screen` (or opens the Flow, `screen`
 * null), Parley shows `next_screen` with `data`, each value filled from the contact and what they entered.
 */
export const ScreenAnswerSchema = Type.Object(
  {
    screen: Type.Union([SCREEN_ID, Type.Null()], {
      description:
        "The screen the customer submits (its `id` in the Flow JSON, Meta's `data_exchange`); null: the Flow opening (Meta's `INIT`).",
    }),
    next_screen: Type.String({
      ...SCREEN_ID,
      description: `The screen shown next, with \`data\`; \`${FINISH}\` closes the Flow (Meta's final answer, its \`extension_message_response.params\` being the \`flow_token\` and \`data\`).`,
    }),
    data: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]+$', maxLength: 100 }), Type.String({ maxLength: 4096 }), {
      maxProperties: 50,
      description:
        'The next screen\'s data, by name: text where `{{contact.name}}`, `{{contact.first_name}}`, `{{contact.phone}}`, `{{contact.email}}`, `{{attributes.KEY}}` (the contact\'s custom attributes) and `{{context.FIELD}}` (what the customer entered on an earlier screen of this Flow) are filled in; `{{… | "fallback"}}` when empty.',
    }),
  },
  { additionalProperties: false, $id: 'FlowsScreenAnswer' },
);
export type ScreenAnswer = Static<typeof ScreenAnswerSchema>;

/** The refusals of a screen table a person wrote: a screen answered twice, or two rows opening the Flow. */
export function checkScreenAnswers(rows: ScreenAnswer[]): void {
  const seen = new Set<string | null>();
  const problems: FieldError[] = [];
  rows.forEach((row, index) => {
    const field = `screen_answers[${index}].screen`;
    if (seen.has(row.screen)) {
      problems.push(
        row.screen === null
          ? flowsEndpointProblems.problem(field, 'opening_repeated')
          : flowsEndpointProblems.problem(field, 'screen_repeated', { screen: row.screen }),
      );
    }
    seen.add(row.screen);
  });
  if (problems.length > 0) throw errors.invalid(...problems);
}

/** Parley's answer to a screen request, or why it has none (the adapter then answers as for a silent endpoint). */
export type ScreenOutcome = { answer: Record<string, unknown>; finished: boolean } | { missing: string };

/**
 * What the screen table answers a decrypted request (Meta's INIT, data_exchange or BACK), in Meta's
 * shapes ("Implementing Endpoint for Flows" → "Next Screen Response Payload", "Final Response Payload").
 * BACK names the screen the customer goes back to: it is shown again with the data that first led to it.
 */
export function answerFromScreens(
  rows: ScreenAnswer[],
  request: { action: string; screen: string | null; flowToken: string },
  scope: RenderScope,
): ScreenOutcome {
  const row =
    request.action === 'BACK'
      ? rows.find((r) => r.next_screen === request.screen)
      : rows.find((r) => r.screen === (request.action === 'INIT' ? null : request.screen));
  if (request.action === 'BACK' && request.screen !== null && !row) {
    return { answer: { screen: request.screen, data: {} }, finished: false };
  }
  if (!row) return { missing: request.action === 'INIT' ? 'the Flow opening' : `screen ${request.screen ?? '(none)'}` };
  const data = Object.fromEntries(Object.entries(row.data).map(([key, text]) => [key, render(text, scope)]));
  if (row.next_screen !== FINISH) return { answer: { screen: row.next_screen, data }, finished: false };
  const params = { ...data, flow_token: request.flowToken };
  return { answer: { screen: FINISH, data: { extension_message_response: { params } } }, finished: true };
}
