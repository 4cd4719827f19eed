import { Type, type Static } from '@sinclair/typebox';
import { NullableField } from '../http/responses.js';
import { Cost, Count } from './cost.schema.js';

const Share = (description: string) =>
  NullableField(Type.Number({ minimum: 0, maximum: 1, description: `${description} (0–1, to three decimals)` }));
const Millis = (description: string) => NullableField(Type.Integer({ minimum: 0, description }));

/** How the handled conversations ended (docs/reports.md defines each word). */
const Outcomes = {
  handled: Count('Conversations the AI assistant took a turn in whose first turn fell within the range'),
  answered: Count('Of them, those it sent at least one reply in'),
  handed_over: Count('Of them, those it handed to a person (by any reason)'),
  resolved_without_person: Count(
    `Of them, closed with no person taking part (no hand-over, no message from a member, an API token or the WhatsApp Business app, no member assigned when closed) and not reopened within 7 days of the close`,
  ),
  reopened: Count('Of them, closed with no person taking part, then reopened by the customer within 7 days'),
  awaiting_reopen_window: Count(
    'Of them, closed with no person taking part less than 7 days ago and not reopened yet: not counted as resolved until the 7 days pass',
  ),
};

const Satisfaction = Type.Object({
  ratings: Count('Ratings (1–5) given within the range'),
  average: NullableField(Type.Number({ description: 'Average rating (1–5), to one decimal' })),
  satisfied_share: Share('Share of ratings of 4 or 5'),
});

const Latency = Type.Object({
  p50: Millis('Median, in milliseconds (nearest rank)'),
  p99: Millis('99th percentile, in milliseconds (nearest rank)'),
});

export const AiReportSchema = Type.Object(
  {
    from: Type.String({ description: 'First day (YYYY-MM-DD, in the workspace’s time zone)' }),
    to: Type.String({ description: 'Last day, included' }),
    time_zone: Type.String({ description: 'The workspace’s time zone the days are in' }),
    conversations: Type.Object({
      ...Outcomes,
      resolution_rate: Share('resolved_without_person over handled; null when none was handled'),
      hand_over_rate: Share('handed_over over handled; null when none was handled'),
    }),
    hand_over_reasons: Type.Array(
      Type.Object({
        reason: Type.String({
          description:
            'Why the assistant handed over (model_decided, stop_word, opt_out, reply_limit, low_confidence, unsupported_claim, unknown_citation, invalid_decision, not_configured, model_error, timeout, rate_limited, budget_exhausted, assistant_off, window_closed)',
        }),
        conversations: Count('Handled conversations handed over for this reason'),
      }),
      { description: 'The most frequent first' },
    ),
    days: Type.Array(
      Type.Object({
        day: Type.String({ description: 'YYYY-MM-DD: the day of each conversation’s first turn' }),
        ...Outcomes,
      }),
      { description: 'Every day of the range' },
    ),
    turns: Type.Object({
      total: Count('Turns the assistant took within the range (one per customer message it answered)'),
      replies: Count('Turns that replied'),
      hand_overs: Count('Turns that handed over'),
      closes: Count('Turns that closed the conversation'),
      model_ms: Latency,
      overhead_ms: Type.Object(Latency.properties, {
        description: 'A turn’s time beyond the model’s own: its guards, knowledge search, checks and writes',
      }),
    }),
    csat: Type.Object({
      ai: Satisfaction,
      ai_and_person: Satisfaction,
      people: Satisfaction,
    }),
    tokens: Type.Object({
      prompt: Count('Prompt tokens of the assistant’s turns within the range'),
      completion: Count('Completion tokens of the assistant’s turns within the range'),
      cost: NullableField(
        Type.Number({
          minimum: 0,
          description:
            'What they cost at the prices per million tokens saved with the model now (the currency you are billed in); null without prices',
        }),
      ),
    }),
    usage_by_month: Type.Array(
      Type.Object({
        month: Type.String({ description: 'A UTC month (YYYY-MM) the range touches' }),
        purpose: Type.String({ description: 'assistant, copilot, eval, test or embeddings' }),
        calls: Count('Calls to the model'),
        prompt_tokens: Count('Prompt tokens'),
        completion_tokens: Count('Completion tokens'),
        cost: NullableField(Type.Number({ minimum: 0, description: 'At the saved prices; null without prices' })),
      }),
      { description: 'The usage ledger, every purpose, for each whole UTC month the range touches' },
    ),
    meta: Type.Object({
      messages: Count('Messages the assistant sent within the range'),
      currency: Type.String({ description: 'The currency of `cost`: as in the cost ledger' }),
      cost: Cost,
    }),
  },
  { $id: 'AiReport' },
);
export type AiReport = Static<typeof AiReportSchema>;
