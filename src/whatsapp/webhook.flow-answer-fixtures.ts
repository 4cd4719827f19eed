/**
 * A Flow whose answers tests read, and Meta's webhook of an answer. The Flow JSON is in the shape of Meta's
 * "Flow JSON" reference (developers.facebook.com/docs/whatsapp/flows/reference/flowjson): input components
 * with a `name` and a `label`, and a terminal screen whose Footer's `complete` action sends the payload that
 * becomes the answer's `response_json` (referring to an earlier screen's fields as `${screen.ID.form.NAME}`,
 * to its own as `${form.NAME}`).
 */
import { inboundMessageWebhook, type BusinessLine } from './webhook.fixtures.js';

/** A two-screen sign-up form: text, a date, a checkbox group, an opt-in, and a constant with no component. */
export const signUpFlowJson = (): string =>
  JSON.stringify(
    {
      version: '7.0',
      screens: [
        {
          id: 'DETAILS',
          title: 'Join the club',
          layout: {
            type: 'SingleColumnLayout',
            children: [
              { type: 'TextInput', name: 'full_name', label: 'Your name', required: true },
              { type: 'DatePicker', name: 'birthday', label: 'Birthday' },
              {
                type: 'CheckboxGroup',
                name: 'interests',
                label: 'What do you like?',
                'data-source': [
                  { id: 'roses', title: 'Roses' },
                  { id: 'tulips', title: 'Tulips' },
                ],
              },
              {
                type: 'Footer',
                label: 'Continue',
                'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'CONSENT' }, payload: {} },
              },
            ],
          },
        },
        {
          id: 'CONSENT',
          title: 'One more thing',
          terminal: true,
          layout: {
            type: 'SingleColumnLayout',
            children: [
              { type: 'OptIn', name: 'newsletter', label: 'Send me the newsletter' },
              {
                type: 'Footer',
                label: 'Join',
                'on-click-action': {
                  name: 'complete',
                  payload: {
                    full_name: '${screen.DETAILS.form.full_name}',
                    birthday: '${screen.DETAILS.form.birthday}',
                    interests: '${screen.DETAILS.form.interests}',
                    newsletter: '${form.newsletter}',
                    source: 'whatsapp',
                  },
                },
              },
            ],
          },
        },
      ],
    },
    null,
    2,
  );

/**
 * Meta's "Flow response message webhook" ("Receiving Flow Response", WhatsApp Flows guides): the answer is
 * an interactive `nfm_reply` in reply (`context.id`) to the Flow message, whose `response_json` is a JSON
 * string of the `flow_token` and the complete payload.
 */
export function flowAnswerWebhook(
  line: BusinessLine & { from: string; wamid?: string; replyTo?: string; timestamp?: Date },
  response: Record<string, unknown>,
) {
  const nfmReply = { name: 'flow', body: 'Sent', response_json: JSON.stringify(response) };
  return inboundMessageWebhook({ ...line, type: 'interactive', content: { type: 'nfm_reply', nfm_reply: nfmReply } });
}
