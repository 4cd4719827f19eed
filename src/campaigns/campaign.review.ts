import { Type, type Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TemplateContent } from '../content/template.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { templateRepository } from '../templates/index.js';
import { audienceOf, normaliseAudience, type Recipient } from './campaign.audience.js';
import { CreateCampaignBody } from './campaign.schema.js';
import { campaignTemplateCheck, composer } from './campaign.content.js';
import { portfolioRoom, type MessagingRoom } from './campaign.limit.js';

const { template_id, language, variables, header_media_url, audience, from_phone_number_id } =
  CreateCampaignBody.properties;

/** What the New campaign form's confirm step asks about: the message, its audience and the number it goes from. */
export const CampaignReviewBody = Type.Object({
  template_id,
  language,
  variables,
  header_media_url,
  audience,
  from_phone_number_id,
});
export type CampaignReviewInput = Static<typeof CampaignReviewBody>;

/** The message as one recipient sees it in WhatsApp. */
export interface MessagePreview {
  contact_name: string | null;
  contact_phone: string;
  header_text: string | null;
  header_media: { type: string; link: string } | null;
  text: string;
  footer: string | null;
  buttons: { type: string; text: string }[];
}

/** The confirm step: who it reaches, what the first of them will see, and the template's pricing category. */
export interface CampaignReview {
  contacts: number;
  opted_out: number;
  /** Null when nobody would get it (everyone opted out, or a placeholder has no value for anyone). */
  preview: MessagePreview | null;
  /** Meta's pricing category in lower case, as message rates are keyed (marketing, utility…). */
  category: string;
  /** The messages the dispatch would queue now: recipients not opted out whose placeholders all have values. */
  messages: number;
  /** Their recipients' phone numbers, which price them (by market). */
  phones: string[];
  /** The business portfolio's messaging limit where it sends, and the room left; null when Meta stated none. */
  messaging_limit: MessagingRoom | null;
  /** Of the messages, those past the room: Meta refuses them now, unless the campaign waits (`over_limit: wait`). */
  past_room: number;
}

/**
 * Reviews a campaign before it is created: the template is checked as create-campaign checks it, and
 * every recipient's message is composed by the dispatch's own composer, so the preview is exactly
 * what the first recipient would get.
 */
export async function reviewCampaign(
  db: Kysely<Database>,
  caller: Caller,
  input: CampaignReviewInput,
  now: Date,
): Promise<CampaignReview> {
  const { workspaceId } = caller;
  const templates = templateRepository(db);
  const template = await templates.findById(workspaceId, input.template_id);
  if (!template) throw errors.notFound('template', 'template_id');
  const language = campaignTemplateCheck(template, await templates.translations([template.id]), input);
  const members = await audienceOf(db, workspaceId, await normaliseAudience(db, workspaceId, input.audience));
  const compose = await composer(db, {
    workspace_id: workspaceId,
    template_id: template.id,
    language,
    variables: JSON.stringify(input.variables ?? []),
    header_media_url: input.header_media_url ?? null,
  });
  const composed = members
    .filter((member) => !member.opted_out_at)
    .map((member) => ({ member, content: compose?.(member) ?? null }))
    .filter((entry): entry is { member: Recipient; content: TemplateContent } => entry.content !== null);
  const first = composed[0];
  const room = await portfolioRoom(db, workspaceId, { phoneNumberId: input.from_phone_number_id }, now);
  const free = room?.room ?? null;
  return {
    contacts: members.length,
    opted_out: members.filter((member) => member.opted_out_at).length,
    preview: first ? previewOf(first.member, first.content) : null,
    category: template.category.toLowerCase(),
    messages: composed.length,
    phones: composed.map((entry) => entry.member.phone),
    messaging_limit: room && { customers_per_24h: room.customers_per_24h, used: room.used, room: room.room },
    past_room: free === null ? 0 : Math.max(0, composed.length - free),
  };
}

function previewOf(contact: Recipient, content: TemplateContent): MessagePreview {
  const media = content.header && content.header.type !== 'text' ? content.header : null;
  return {
    contact_name: contact.name,
    contact_phone: contact.phone,
    header_text: content.header_text ?? null,
    header_media: media,
    text: content.text,
    footer: content.footer ?? null,
    buttons: content.buttons ?? [],
  };
}
