import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from '../db/connection.js';
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

/** One call's worst case, set aside against the month's budget until the call is settled. */
export interface Reservation {
  id: string;
  workspaceId: string;
  month: string;
  tokens: number;
  /** When a reservation whose process died stops counting (stored timestamp). */
  expiresAt: string;
}

/** What the month's budget counts: the tokens its calls used, and those its calls in flight set aside. */
export interface BudgetCount {
  used: number;
  reserved: number;
}

/**
 * SQL for ai_settings (one row per workspace that set a model), ai_usage (the ledger) and
 * ai_reservations (the worst cases of the calls in flight).
 */
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

    /**
     * Sets a call's worst case aside when it fits in the month's budget with the ledger and the other
     * calls in flight; else answers what was counted. One transaction per workspace at a time: SQLite's
     * transactions take the write lock as they begin (connection.ts); PostgreSQL's wait on an advisory lock
     * for the workspace, so no two processes read the same total. Lapsed reservations are cleared first.
     */
    async reserve(
      dialect: Dialect,
      reservation: Reservation,
      budget: number,
      now: string,
    ): Promise<BudgetCount | null> {
      const { id, workspaceId, month, tokens, expiresAt } = reservation;
      return db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') await lockBudget(trx, workspaceId);
        await trx
          .deleteFrom('ai_reservations')
          .where('workspace_id', '=', workspaceId)
          .where('expires_at', '<=', now)
          .execute();
        const { used, reserved } = await tokensCountedIn(trx, workspaceId, month);
        if (used + reserved + tokens > budget) return { used, reserved };
        await trx
          .insertInto('ai_reservations')
          .values({ id, workspace_id: workspaceId, month, tokens, expires_at: expiresAt })
          .execute();
        return null;
      });
    },

    /** A call's real usage into the ledger and its reservation (if any) gone, together. */
    async settle(reservationId: string | null, usage: Usage): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (reservationId) await trx.deleteFrom('ai_reservations').where('id', '=', reservationId).execute();
        await addUsageIn(trx, usage);
      });
    },

    /** A failed call's reservation given back (the model counted nothing, or said nothing of it). */
    async release(reservationId: string): Promise<void> {
      await db.deleteFrom('ai_reservations').where('id', '=', reservationId).execute();
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
  };
}

/** Waits, inside the transaction, for any other process reserving against the workspace's budget. */
async function lockBudget(trx: Transaction<Database>, workspaceId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ai_budget:${workspaceId}`}, 0))`.execute(trx);
}

/** Adds one call's tokens to the month's row of its purpose (created by the first call). */
async function addUsageIn(db: Kysely<Database>, { workspaceId, month, purpose, tokens }: Usage): Promise<void> {
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
}

/**
 * Every token the month's calls used (across purposes) and every token its calls in flight set aside, read
 * in one statement: a call settled between two reads (its reservation gone, its usage not yet seen) would
 * be counted in neither, and on PostgreSQL settling does not wait for the budget's lock.
 */
async function tokensCountedIn(db: Kysely<Database>, workspaceId: string, month: string): Promise<BudgetCount> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('ai_usage')
        .select((u) => u.fn.sum<number | string | null>(u('prompt_tokens', '+', u.ref('completion_tokens'))).as('t'))
        .where('workspace_id', '=', workspaceId)
        .where('month', '=', month)
        .as('used'),
      eb
        .selectFrom('ai_reservations')
        .select((r) => r.fn.sum<number | string | null>('tokens').as('t'))
        .where('workspace_id', '=', workspaceId)
        .where('month', '=', month)
        .as('reserved'),
    ])
    .executeTakeFirstOrThrow();
  return { used: Number(row.used ?? 0), reserved: Number(row.reserved ?? 0) };
}

/** One call's tokens, as the ledger counts them: the month and purpose it is counted in. */
export interface Usage {
  workspaceId: string;
  month: string;
  purpose: UsagePurpose;
  tokens: Tokens;
}

export interface Tokens {
  prompt: number;
  completion: number;
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));
