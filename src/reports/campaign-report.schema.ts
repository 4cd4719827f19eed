import { Type, type Static } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { Cost, Count, Money, PricingInfo } from './cost.schema.js';

const Funnel = Type.Object(
  {
    sent: Count('Accepted by WhatsApp (delivered and read ones included)'),
    delivered: Count('Delivered to the phone (read ones included)'),
    read: Count('Read by the recipient'),
    replied: Count('Recipients who wrote in after their campaign message was queued'),
    opted_out: Count('Recipients who opted out of marketing after their campaign message was queued (and still are)'),
    failed: Count("Not delivered: Meta's error, or cancelled before it was sent"),
  },
  {
    description:
      'Cumulative, as get-campaign counts: sent ≥ delivered ≥ read (a read message is also delivered and sent); `failed` stands apart.',
  },
);

const FailureReason = Type.Object({
  code: NullableField(Type.Integer({ description: "Meta's error code; null for Parley's own (campaign cancelled)" })),
  title: Type.String({ description: "The error's title as Meta (or Parley) gave it" }),
  reason: Type.String({ description: 'What it means for the business, in plain words' }),
  count: Count('Messages that failed with it'),
});

export const CampaignOutcome = Type.Object({
  id: Uuid(),
  name: Type.String(),
  status: Type.String({ description: 'sending, sent or cancelled' }),
  template_name: NullableField(Type.String()),
  dispatched_at: Timestamp('When its messages were queued'),
  recipients: Count('Messages queued for it (within the report’s number, team and label)'),
  funnel: Funnel,
  not_read: Count('Recipients whose message was sent or delivered but not read: whom resend-campaign would message'),
  failure_reasons: Type.Array(FailureReason, { description: 'Grouped by error code, the most frequent first' }),
  cost: Cost,
  resent_as: NullableField(Uuid('The campaign resend-campaign made of it; null until then')),
});
export type CampaignOutcome = Static<typeof CampaignOutcome>;

export const CampaignReport = Type.Object({
  range: Type.Object({
    from: Type.String({ description: 'First day (YYYY-MM-DD), in the workspace’s time zone' }),
    to: Type.String({ description: 'Last day, included' }),
    time_zone: Type.String(),
  }),
  currency: Type.String({
    description: 'The currency of every amount: the workspace’s rate cards’, else its rates’, else USD',
  }),
  pricing: PricingInfo,
  total_cost: Money('What every listed campaign cost, in `currency`'),
  campaigns: Type.Array(CampaignOutcome, { description: 'Each campaign dispatched in the range, newest first' }),
});
export type CampaignReport = Static<typeof CampaignReport>;
