import { Type, type Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { NullableField, Timestamp } from '../http/responses.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { channelProblems } from './channel.problems.js';

const ENABLED =
  "When true, every MARKETING template message (single sends, campaigns, sequences, flows) goes through Meta's Marketing Messages API (`/marketing_messages`: Meta's delivery optimisations, templates' time-to-live, click reports); other messages go through Cloud API as before. Meta's terms for it must have been accepted for the business portfolio first. Off by default.";

/** get- and update-marketing-messages-settings' answer. */
export const MarketingMessagesSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: ENABLED }),
    terms_accepted_by: NullableField(
      Type.String({ description: "The user who confirmed Meta's terms were accepted, when it was last turned on" }),
    ),
    terms_accepted_at: NullableField(Timestamp()),
  },
  { $id: 'MarketingMessagesSettings' },
);
export type MarketingMessagesSettings = Static<typeof MarketingMessagesSettingsSchema>;

export const UpdateMarketingMessagesBody = Type.Object(
  {
    enabled: Type.Boolean({ description: ENABLED }),
    meta_terms_accepted: Type.Optional(
      Type.Boolean({
        description:
          "Required (true) to turn it on: the business accepted Meta's Marketing Messages API terms (in WhatsApp Manager). Who confirmed it and when are kept.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateMarketingMessagesInput = Static<typeof UpdateMarketingMessagesBody>;
/** SQL for marketing_messages_settings: one row per workspace that ever turned it on (no row: off). */
function settingsRepository(db: Kysely<Database>) {
  return {
    find: (workspaceId: string) =>
      db
        .selectFrom('marketing_messages_settings')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst(),

    async save(
      workspaceId: string,
      fields: { enabled: number; updated_at: string; terms_accepted_by?: string | null; terms_accepted_at?: string },
    ) {
      await db
        .insertInto('marketing_messages_settings')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },
  };
}

/** Whether the workspace's marketing templates go through the Marketing Messages API (its sending channel says). */
export async function marketingMessagesEnabled(db: Kysely<Database>, workspaceId: string): Promise<boolean> {
  return (await settingsRepository(db).find(workspaceId))?.enabled === 1;
}

/**
 * Whether a workspace's marketing templates go through Meta's Marketing Messages API. Turning it on
 * needs the caller's word that the business accepted Meta's terms (Meta refuses every send otherwise):
 * who said so and when are kept with the setting.
 */
export function createMarketingMessagesSettings({ db, clock }: Deps) {
  async function settings(workspaceId: string): Promise<MarketingMessagesSettings> {
    const row = await settingsRepository(db).find(workspaceId);
    return {
      enabled: row?.enabled === 1,
      terms_accepted_by: row?.terms_accepted_by ?? null,
      terms_accepted_at: row?.terms_accepted_at ? formatTimestamp(row.terms_accepted_at) : null,
    };
  }

  return {
    settings: (caller: Caller) => settings(caller.workspaceId),

    async update(caller: Caller, input: UpdateMarketingMessagesInput): Promise<MarketingMessagesSettings> {
      const at = toStoredTimestamp(clock.now());
      if (input.enabled && input.meta_terms_accepted !== true) {
        throw errors.invalid(channelProblems.problem('meta_terms_accepted', 'meta_terms_required'));
      }
      await settingsRepository(db).save(caller.workspaceId, {
        enabled: input.enabled ? 1 : 0,
        updated_at: at,
        ...(input.enabled && { terms_accepted_by: caller.userId ?? null, terms_accepted_at: at }),
      });
      return settings(caller.workspaceId);
    },
  };
}

export type MarketingMessagesSettingsService = ReturnType<typeof createMarketingMessagesSettings>;
