import type { Kysely } from 'kysely';
import type { AiSettingsTable, Database } from '../db/schema.js';
import type { UsagePurpose } from './ai-model.js';

export type AiSettingsRow = Omit<AiSettingsTable, 'monthly_token_budget'> & { monthly_token_budget: number | null };

/** What a workspace's calls used in one month, by purpose. */
export interface UsageRow {
  purpose: UsagePurpose;
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

/** SQL for ai_settings (one row per workspace that set a model) and ai_usage (the ledger). */
export function aiSettingsRepository(db: Kysely<Database>) {
  return {
    async find(workspaceId: string): Promise<AiSettingsRow | undefined> {
      const row = await db
        .selectFrom('ai_settings')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return row && { ...row, monthly_token_budget: numberOrNull(row.monthly_token_budget) };
    },

    async save(row: AiSettingsRow): Promise<void> {
      const { workspace_id: workspaceId, ...fields } = row;
      await db
        .insertInto('ai_settings')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },

    /** Adds one call's tokens to the month's row of its purpose (created by the first call). */
    async addUsage(workspaceId: string, month: string, purpose: UsagePurpose, tokens: Tokens): Promise<void> {
      await db
        .insertInto('ai_usage')
        .values({
          workspace_id: workspaceId,
          month,
          purpose,
          calls: 1,
          prompt_tokens: tokens.prompt,
          completion_tokens: tokens.completion,
        })
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'month', 'purpose']).doUpdateSet((eb) => ({
            calls: eb('ai_usage.calls', '+', eb.ref('excluded.calls')),
            prompt_tokens: eb('ai_usage.prompt_tokens', '+', eb.ref('excluded.prompt_tokens')),
            completion_tokens: eb('ai_usage.completion_tokens', '+', eb.ref('excluded.completion_tokens')),
          })),
        )
        .execute();
    },

    async usage(workspaceId: string, month: string): Promise<UsageRow[]> {
      const rows = await db
        .selectFrom('ai_usage')
        .select(['purpose', 'calls', 'prompt_tokens', 'completion_tokens'])
        .where('workspace_id', '=', workspaceId)
        .where('month', '=', month)
        .orderBy('purpose')
        .execute();
      return rows.map((row) => ({
        purpose: row.purpose as UsagePurpose,
        calls: Number(row.calls),
        promptTokens: Number(row.prompt_tokens),
        completionTokens: Number(row.completion_tokens),
      }));
    },

    /** Every token the month's calls used, across purposes (what the budget counts). */
    async tokensUsed(workspaceId: string, month: string): Promise<number> {
      const row = await db
        .selectFrom('ai_usage')
        .select((eb) =>
          eb.fn.sum<number | string | null>(eb('prompt_tokens', '+', eb.ref('completion_tokens'))).as('used'),
        )
        .where('workspace_id', '=', workspaceId)
        .where('month', '=', month)
        .executeTakeFirst();
      return Number(row?.used ?? 0);
    },
  };
}

export interface Tokens {
  prompt: number;
  completion: number;
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));
