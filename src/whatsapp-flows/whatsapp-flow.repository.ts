import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, WhatsappFlowAlertTable, WhatsappFlowTable } from '../db/schema.js';

export type WhatsappFlowRow = Awaited<ReturnType<ReturnType<typeof whatsappFlowRepository>['findById']>> & object;

/** SQL for WhatsApp Flows (Meta's forms): the only place `whatsapp_flows` and `whatsapp_flow_alerts` are written. */
export function whatsappFlowRepository(db: Kysely<Database>) {
  const inWorkspace = (workspaceId: string) =>
    db.selectFrom('whatsapp_flows').selectAll().where('workspace_id', '=', workspaceId);

  return {
    findById: (workspaceId: string, id: string) => inWorkspace(workspaceId).where('id', '=', id).executeTakeFirst(),

    findByMeta: (workspaceId: string, metaFlowId: string) =>
      inWorkspace(workspaceId).where('meta_flow_id', '=', metaFlowId).executeTakeFirst(),

    /** The workspace's Flows by name (in one status when given). */
    list: (workspaceId: string, status?: string) =>
      inWorkspace(workspaceId)
        .$if(status !== undefined, (q) => q.where('status', '=', status!))
        .orderBy('name')
        .orderBy('id')
        .execute(),

    async insert(row: Insertable<WhatsappFlowTable>): Promise<void> {
      await db.insertInto('whatsapp_flows').values(row).execute();
    },

    async update(id: string, fields: Updateable<WhatsappFlowTable>): Promise<void> {
      await db.updateTable('whatsapp_flows').set(fields).where('id', '=', id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('whatsapp_flows').where('id', '=', id).execute();
    },

    /** Every workspace's Flow of this Meta id (one per workspace on the account). */
    byMetaId: (metaFlowId: string) =>
      db.selectFrom('whatsapp_flows').selectAll().where('meta_flow_id', '=', metaFlowId).execute(),

    async insertAlert(row: Insertable<WhatsappFlowAlertTable>): Promise<void> {
      await db.insertInto('whatsapp_flow_alerts').values(row).execute();
    },

    /** A Flow's alerts, newest first. */
    alerts: (workspaceId: string, flowId: string, limit: number) =>
      db
        .selectFrom('whatsapp_flow_alerts')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('whatsapp_flow_id', '=', flowId)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),

    /** Forgets the workspace's Flows Meta no longer lists (deleted at Meta). */
    async deleteAllBut(workspaceId: string, metaFlowIds: string[]): Promise<void> {
      await db
        .deleteFrom('whatsapp_flows')
        .where('workspace_id', '=', workspaceId)
        .$if(metaFlowIds.length > 0, (q) => q.where('meta_flow_id', 'not in', metaFlowIds))
        .execute();
    },
  };
}
