import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** The tables of one-time links, and the column that marks a link used. */
const USED_AT = { invites: 'accepted_at', password_resets: 'used_at' } as const;

/**
 * Marks a one-time link used, in the transaction that acts on it: of two uses at the same time only
 * one claims it, and the other gets `used()` (so an invitation makes one user, a reset one password).
 */
export async function claimOneTimeLink(
  trx: Transaction<Database>,
  table: keyof typeof USED_AT,
  id: string,
  at: string,
  used: () => Error,
): Promise<void> {
  const column = USED_AT[table];
  const claimed = await trx
    .updateTable(table)
    .set({ [column]: at })
    .where('id', '=', id)
    .where(column, 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw used();
}
