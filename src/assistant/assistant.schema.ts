import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

/** When, by the workspace's business hours, the assistant answers. */
export const ASSISTANT_HOURS = ['always', 'outside_hours', 'inside_hours'] as const;
export type AssistantHours = (typeof ASSISTANT_HOURS)[number];

/** The longest WhatsApp text body: the hand-over message is one. */
const MESSAGE_MAX_LENGTH = 4096;

const DESCRIPTIONS = {
  enabled:
    'When true, the assistant answers customers where `channel_ids`, `team_ids` and `hours` say (and wherever a flow’s ai_assistant node hands it a conversation), from the knowledge only, inside the 24-hour window. It needs a model (the workspace’s AI model settings); without one, or when the model fails, it hands over to a person. Off by default.',
  channel_ids:
    'The numbers it answers on (ids from list-channels); empty: every number, the simulator included. A conversation is on the number the customer last wrote to',
  team_ids:
    'The teams whose conversations it answers (ids from list-teams); empty: every conversation, whatever its team',
  hours:
    '`always`; `outside_hours`: only while the business hours (get-business-hours) say closed; `inside_hours`: only while open',
  name: 'What its messages are signed with in the thread and the API (a message’s `sender.name`)',
  instructions:
    'How it speaks (tone, who the business is): added to its rules, which it cannot loosen. Empty: plain and friendly',
  reply_limit:
    'The most replies it sends in one conversation; the customer’s next message then goes to a person (reason reply_limit)',
  confidence_floor:
    'Below this confidence (0–1, the model’s own) it hands over instead of replying (reason low_confidence)',
  stop_words:
    'Words besides the built-in ones (agent, human, and in Spanish and Portuguese agente, humano, atendente) and the workspace’s opt-out keywords that send the conversation to a person without asking the model; matched as whole words, ignoring case and accents',
  handover_message:
    'What the customer is told when the assistant hands the conversation to a person: once per conversation, as a message from the assistant',
} as const;

const ChannelIds = Type.Array(Uuid('A number, by its list-channels id'), {
  maxItems: 100,
  uniqueItems: true,
  description: DESCRIPTIONS.channel_ids,
});
const TeamIds = Type.Array(Uuid('A team, by its list-teams id'), {
  maxItems: 100,
  uniqueItems: true,
  description: DESCRIPTIONS.team_ids,
});
const Hours = Type.Union(
  ASSISTANT_HOURS.map((hours) => Type.Literal(hours)),
  { description: DESCRIPTIONS.hours },
);

/** Every setting of the assistant, as saved (and as the update action replaces it, whole). */
const settingsFields = {
  enabled: Type.Boolean({ description: DESCRIPTIONS.enabled }),
  channel_ids: ChannelIds,
  team_ids: TeamIds,
  hours: Hours,
  name: Type.String({ minLength: 1, maxLength: 60, description: DESCRIPTIONS.name }),
  instructions: Type.String({ maxLength: 4000, description: DESCRIPTIONS.instructions }),
  reply_limit: Type.Integer({ minimum: 1, maximum: 100, description: DESCRIPTIONS.reply_limit }),
  confidence_floor: Type.Number({ minimum: 0, maximum: 1, description: DESCRIPTIONS.confidence_floor }),
  stop_words: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 50,
    description: DESCRIPTIONS.stop_words,
  }),
  handover_message: Type.String({
    minLength: 1,
    maxLength: MESSAGE_MAX_LENGTH,
    description: DESCRIPTIONS.handover_message,
  }),
};

export const AssistantSettingsSchema = Type.Object(settingsFields, { $id: 'AssistantSettings' });
export type AssistantSettings = Static<typeof AssistantSettingsSchema>;

export const UpdateAssistantSettingsBody = Type.Object(settingsFields, {
  additionalProperties: false,
  description: 'The whole setting: it replaces what was saved (read it with get-assistant-settings first).',
});

/** What every setting is until the workspace saves its own: switched off. */
export const DEFAULT_SETTINGS: AssistantSettings = {
  enabled: false,
  channel_ids: [],
  team_ids: [],
  hours: 'always',
  name: 'AI assistant',
  instructions: '',
  reply_limit: 5,
  confidence_floor: 0.6,
  stop_words: [],
  handover_message: 'Thanks for your patience! I am passing you to a colleague, who will answer you here shortly.',
};

/** The assistant's actions on a turn. */
export const TURN_ACTIONS = ['reply', 'hand_over', 'close'] as const;
export type TurnAction = (typeof TURN_ACTIONS)[number];

/** Why the assistant handed a conversation to a person (the reports group hand-overs by it). */
export const HANDOVER_REASONS = [
  'model_decided',
  'stop_word',
  'opt_out',
  'reply_limit',
  'low_confidence',
  'unsupported_claim',
  'unknown_citation',
  'invalid_decision',
  'not_configured',
  'model_error',
  'timeout',
  'rate_limited',
  'budget_exhausted',
  'assistant_off',
  'window_closed',
] as const;
export type HandoverReason = (typeof HANDOVER_REASONS)[number];

const CitationSchema = Type.Object({
  chunk_id: Type.String({ description: 'The knowledge chunk' }),
  source_id: NullableField(Type.String({ description: 'Its knowledge source' })),
  source: Type.String({ description: 'The source’s title as it was when cited' }),
  heading: NullableField(Type.String({ description: 'The chunk’s heading in its source' })),
  text: Type.String({ description: 'The chunk’s text as it was when cited (sources change; this does not)' }),
});
export type Citation = Static<typeof CitationSchema>;

/** One turn of the assistant on a conversation, as list-assistant-turns returns it. */
export const AssistantTurnSchema = Type.Object(
  {
    id: Uuid(),
    contact_id: Uuid(),
    span_id: NullableField(Uuid('The conversation (report period) it happened in')),
    message_id: Uuid('The customer’s latest message it answered'),
    action: Type.String({
      enum: [...TURN_ACTIONS],
      description: '`reply`: it answered; `hand_over`: it gave the conversation to a person; `close`: it closed it',
    }),
    reason: NullableField(
      Type.String({
        enum: [...HANDOVER_REASONS],
        description:
          'Why it handed over: `model_decided` (the model chose to, see `summary`), `stop_word`, `opt_out`, `reply_limit`, `low_confidence`, `unsupported_claim` (a price, amount, percentage, date or time its cited knowledge does not state), `unknown_citation`, `invalid_decision`, `not_configured`, `model_error`, `timeout`, `rate_limited`, `budget_exhausted`, `assistant_off` (a flow handed it a conversation while it was off), `window_closed`',
      }),
    ),
    reply_message_id: NullableField(Uuid('The message it sent (its reply, or its goodbye on close)')),
    notice_message_id: NullableField(Uuid('The message telling the customer a person will answer (once)')),
    confidence: NullableField(Type.Number({ description: 'The model’s confidence, 0–1' })),
    citations: Type.Array(CitationSchema, { description: 'The knowledge its reply relied on' }),
    summary: NullableField(Type.String({ description: 'For the person taking over: what the customer needs' })),
    tags: Type.Array(Type.String(), { description: 'Tags it added to the contact' }),
    attributes: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), {
      description: 'Contact attributes it set',
    }),
    model: NullableField(Type.String({ description: 'The model that answered; null when none was asked' })),
    prompt_tokens: Type.Integer(),
    completion_tokens: Type.Integer(),
    model_ms: NullableField(Type.Integer({ description: 'How long the model took' })),
    total_ms: Type.Integer({ description: 'From the job’s start to the decision applied, the model included' }),
    created_at: Timestamp(),
  },
  { $id: 'AssistantTurn' },
);
export type AssistantTurn = Static<typeof AssistantTurnSchema>;

export const ListAssistantTurnsBody = Type.Object(
  {
    contact_id: Uuid('The conversation’s contact'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At most this many; 50 when absent' })),
  },
  { additionalProperties: false },
);
