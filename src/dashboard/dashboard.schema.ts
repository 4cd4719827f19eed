import { CampaignEstimate } from '../reports/index.js';
import { Type } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';

// What the dashboard's campaign and automation helpers answer (docs/dashboard-openapi.yaml).

/** New campaign's confirm step: who it reaches, the first recipient's message, the estimated cost. */
export const CampaignReview = Type.Object({
  contacts: Type.Integer(),
  opted_out: Type.Integer(),
  preview: Type.Union(
    [
      Type.Object({
        contact_name: NullableField(Type.String()),
        contact_phone: Type.String(),
        header_text: NullableField(Type.String()),
        header_media: Type.Union([Type.Object({ type: Type.String(), link: Type.String() }), Type.Null()]),
        text: Type.String(),
        footer: NullableField(Type.String()),
        buttons: Type.Array(Type.Object({ type: Type.String(), text: Type.String() })),
      }),
      Type.Null(),
    ],
    { description: 'Null when nobody would get it (everyone opted out, or a placeholder has no value for anyone)' },
  ),
  category: Type.String({ description: "Meta's pricing category in lower case (marketing, utility…)" }),
  messages: Type.Integer({ description: 'The messages the dispatch would queue now' }),
  cost: CampaignEstimate,
});

/** A row of the Sequences or Flows list: its runs counted by state. */
export const AutomationSummary = Type.Object({
  id: Uuid(),
  name: Type.String(),
  counts: Type.Record(Type.String(), Type.Integer(), { description: 'Runs by state' }),
  updated_at: Timestamp(),
});
