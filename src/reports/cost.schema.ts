import { Type, type Static } from '@sinclair/typebox';
import { MessagingLimitSchema } from '../campaigns/index.js';
import { NullableField } from '../http/responses.js';

export const Count = (description: string) => Type.Integer({ minimum: 0, description });
export const Money = (description: string) => Type.Number({ minimum: 0, description });

const CategoryCost = Type.Object({
  category: Type.String({
    description:
      "Meta's pricing category as its status webhooks name it (marketing, marketing_lite, utility, authentication, authentication_international, service)",
  }),
  billable: Count('Messages Meta charges for in this category'),
  priced: Count('Of them, those a rate priced (see `pricing`)'),
  amount: Money('What the priced messages cost, in `currency`'),
});

/** What a set of messages cost: those Meta charges for, priced one by one by the one rule (pricing.ts). */
export const Cost = Type.Object(
  {
    amount: Money('What the billable messages cost, in `currency` (unpriced ones count nothing)'),
    billable: Count(
      'Messages Meta charges for: pricing.type `regular` in their status webhooks (before per-message pricing, pricing.billable)',
    ),
    unpriced: Count('Billable messages no rate priced: see the docs on overriding rates'),
    categories: Type.Array(CategoryCost),
  },
  { description: 'Priced from Meta’s pricing of each message; the report’s `pricing` says which rates.' },
);
export type Cost = Static<typeof Cost>;

/** Which rates a report priced with. */
export const PricingInfo = Type.Object({
  rate_cards: Type.Array(Type.Object({ effective_from: Type.String(), source: Type.String() }), {
    description:
      'The rate cards the workspace imported, the newest first: a message is priced by the one in effect when it was sent, by its market and category, before any other rate',
  }),
  workspace_rates: Type.Array(Type.String(), {
    description: 'Categories priced at the workspace’s own rates where its cards have none (every market alike)',
  }),
  rate_card: NullableField(
    Type.String({
      description:
        'Meta’s rate card shipped with Parley, which prices what the others leave out (source and effective date); null when the workspace’s currency is not the card’s (USD)',
    }),
  ),
  rate_card_verified: Type.Boolean({
    description:
      'Whether the shipped card’s figures were checked against Meta’s own file (see docs/campaign-reports.md)',
  }),
});
export type PricingInfo = Static<typeof PricingInfo>;

export const LedgerQuery = Type.Object({
  group_by: Type.Optional(
    Type.Union([Type.Literal('day'), Type.Literal('channel'), Type.Literal('campaign')], {
      description: 'day (the default; every day of the range), channel (the sending number) or campaign',
    }),
  ),
});

export const CostLedger = Type.Object({
  range: Type.Object({ from: Type.String(), to: Type.String(), time_zone: Type.String() }),
  group_by: Type.String(),
  currency: Type.String({
    description: 'The currency of every amount: the workspace’s rate cards’, else its rates’, else USD',
  }),
  pricing: PricingInfo,
  total: Cost,
  groups: Type.Array(
    Type.Object({
      key: NullableField(
        Type.String({
          description:
            'The day (YYYY-MM-DD), the number’s phone_number_id, or the campaign’s id; null: messages on no number yet, or sent outside campaigns',
        }),
      ),
      name: NullableField(Type.String({ description: 'The number’s display phone number, or the campaign’s name' })),
      cost: Cost,
    }),
  ),
});
export type CostLedger = Static<typeof CostLedger>;

/** What a campaign would cost, before it is created: its messages priced by market at the rates in effect now. */
export const CampaignEstimate = Type.Object({
  currency: Type.String(),
  category: Type.String({ description: "The template's pricing category in lower case (marketing, utility…)" }),
  messages: Count('The messages the campaign would send now (recipients not opted out, every placeholder filled)'),
  amount: Money('What the priced messages would cost, in `currency`, each counted as charged'),
  unpriced: Count('Messages no rate prices (their markets have `rate` null): the amount leaves them out'),
  markets: Type.Array(
    Type.Object({
      market: Type.String({ description: "The recipients' market on Meta's rate card (by country calling code)" }),
      messages: Count('Messages to it'),
      rate: NullableField(Type.Number({ minimum: 0, description: 'The price per message; null: no rate' })),
      amount: NullableField(Money('What they would cost; null: no rate')),
      source: NullableField(
        Type.String({
          enum: ['rate_card', 'workspace_rate', 'meta_card'],
          description:
            "Which rate: the workspace's imported card (rate_card), its rate per category (workspace_rate) or Meta's shipped USD card (meta_card)",
        }),
      ),
    }),
    { description: 'By market, the most messages first' },
  ),
  messaging_limit: NullableField(MessagingLimitSchema),
  past_room: Count(
    "Of the messages, those past the portfolio's room left: Meta refuses them now unless the campaign is created with `over_limit: wait`",
  ),
});
export type CampaignEstimate = Static<typeof CampaignEstimate>;
