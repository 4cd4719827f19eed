import type { Kysely } from 'kysely';
import type { PortfolioLimit } from '../channels/index.js';
import type { Database } from '../db/schema.js';
import { toStoredTimestamp } from '../shared/time.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The portfolio's messaging limit where a campaign sends, as the confirm step shows it. */
export interface MessagingRoom {
  customers_per_24h: number | 'unlimited';
  /** Unique customers its numbers in this workspace reached with templates in the last 24 hours. */
  used: number;
  /** Customers it may still reach now; null: unlimited. */
  room: number | null;
}

/** The room, and when (ms) each counted customer stops counting (ascending): room returns one customer at a time. */
export interface PortfolioRoom extends MessagingRoom {
  freedAt: number[];
}

/**
 * The room left in the business portfolio (Meta's limit per WABA) of the number a campaign sends from —
 * the one it names, else the workspace's default — counted from the messages table: the unique
 * customers its numbers reached with business-initiated (template) messages in the moving 24 hours.
 * Null when Meta has stated no limit for it (a simulator, or no webhook yet).
 */
export async function portfolioRoom(
  db: Kysely<Database>,
  workspaceId: string,
  from: { channelId?: string | null; phoneNumberId?: string | null },
  now: Date,
): Promise<PortfolioRoom | null> {
  let channel = db
    .selectFrom('channels')
    .select(['waba_id', 'portfolio_limit'])
    .where('workspace_id', '=', workspaceId)
    .where('provider', '=', 'whatsapp-cloud');
  if (from.channelId) channel = channel.where('id', '=', from.channelId);
  else if (from.phoneNumberId) channel = channel.where('phone_number_id', '=', from.phoneNumberId);
  else channel = channel.where('is_default', '=', 1);
  const row = await channel.executeTakeFirst();
  if (!row?.waba_id || row.portfolio_limit === null) return null;
  const limit = (JSON.parse(row.portfolio_limit) as PortfolioLimit).customers_per_24h;
  const reached = await db
    .selectFrom('messages')
    .select((eb) => ['contact_id', eb.fn.min('created_at').as('first_at')])
    .where('workspace_id', '=', workspaceId)
    .where('direction', '=', 'outbound')
    .where('type', '=', 'template')
    .where('status', '!=', 'failed')
    .where('contact_id', 'is not', null)
    .where('created_at', '>', toStoredTimestamp(new Date(now.getTime() - DAY_MS)))
    .where('channel_id', 'in', (eb) =>
      eb.selectFrom('channels').select('id').where('workspace_id', '=', workspaceId).where('waba_id', '=', row.waba_id),
    )
    .groupBy('contact_id')
    .execute();
  const freedAt = reached.map((entry) => new Date(entry.first_at).getTime() + DAY_MS).sort((a, b) => a - b);
  const used = reached.length;
  const room = limit === 'unlimited' ? null : Math.max(0, limit - used);
  return { customers_per_24h: limit, used, room, freedAt };
}

/**
 * When each recipient past the room may be sent (`over_limit: wait`): the limit's slots free 24 hours
 * after they were last used — the counted customers' at their own time, the rest by this campaign's
 * first wave now — so the k-th waiting recipient takes slot k mod limit in wave ⌊k / limit⌋ + 1.
 */
export function dueTimesPastRoom(room: PortfolioRoom, waiting: number, now: Date): Date[] {
  if (room.customers_per_24h === 'unlimited') return [];
  const limit = room.customers_per_24h;
  const slots = [
    ...room.freedAt,
    ...Array<number>(Math.max(0, limit - room.freedAt.length)).fill(now.getTime() + DAY_MS),
  ];
  return Array.from({ length: waiting }, (_, k) => new Date(slots[k % limit]! + Math.floor(k / limit) * DAY_MS));
}
