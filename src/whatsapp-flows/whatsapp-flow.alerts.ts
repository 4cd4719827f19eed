import type { Deps } from '../db/deps.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { whatsappFlowRepository } from './whatsapp-flow.repository.js';
import { WHATSAPP_FLOW_STATUSES, type WhatsappFlowAlert } from './whatsapp-flow.schema.js';

/** How many of a Flow's alerts its page shows (the newest). */
export const FLOW_ALERTS_SHOWN = 50;

/**
 * Meta's `flows` webhook (Flows Webhooks: FLOW_STATUS_CHANGE, CLIENT_ERROR_RATE, ENDPOINT_ERROR_RATE,
 * ENDPOINT_LATENCY, ENDPOINT_AVAILABILITY, FLOW_VERSION_EXPIRY_WARNING), applied to the Flow it names in
 * every workspace that has it: a status change is the Flow's status now, and every notice is kept with the
 * Flow for its page. The workspace event log records the same change as Meta sent it.
 */
export function createWhatsappFlowAlerts({ db, clock, newId }: Pick<Deps, 'db' | 'clock' | 'newId'>) {
  return {
    /** Applies one `flows` change (its `value`); answers how many Flows it concerned. */
    async applyWebhook(value: Record<string, unknown>): Promise<number> {
      const metaFlowId = textOf(value.flow_id);
      const event = textOf(value.event);
      if (metaFlowId === null || event === null) return 0;
      const repository = whatsappFlowRepository(db);
      const flows = await repository.byMetaId(metaFlowId);
      const at = toStoredTimestamp(clock.now());
      const status = event === 'FLOW_STATUS_CHANGE' ? knownStatus(value.new_status) : null;
      for (const flow of flows) {
        if (status !== null) await repository.update(flow.id, { status, updated_at: at });
        await repository.insertAlert({
          id: newId(),
          workspace_id: flow.workspace_id,
          whatsapp_flow_id: flow.id,
          event,
          alert_state: textOf(value.alert_state),
          message: textOf(value.message) ?? textOf(value.warning),
          details: JSON.stringify(value),
          received_at: at,
        });
      }
      return flows.length;
    },

    /** The Flow's alerts, newest first. */
    async list(caller: Caller, flowId: string): Promise<WhatsappFlowAlert[]> {
      const repository = whatsappFlowRepository(db);
      if (!(await repository.findById(caller.workspaceId, flowId))) {
        throw errors.notFound('WhatsApp Flow', 'whatsapp_flow_id');
      }
      const rows = await repository.alerts(caller.workspaceId, flowId, FLOW_ALERTS_SHOWN);
      return rows.map((row) => ({
        id: row.id,
        event: row.event,
        alert_state: row.alert_state,
        message: row.message,
        details: JSON.parse(row.details) as Record<string, unknown>,
        received_at: formatTimestamp(row.received_at),
      }));
    },
  };
}

export type WhatsappFlowAlerts = ReturnType<typeof createWhatsappFlowAlerts>;

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function knownStatus(value: unknown): string | null {
  return (WHATSAPP_FLOW_STATUSES as readonly unknown[]).includes(value) ? (value as string) : null;
}
