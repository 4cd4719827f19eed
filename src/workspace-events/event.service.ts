import { createHash } from 'node:crypto';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { plainReason } from '../messages/index.js';
import type { AccountEvent } from '../channels/index.js';
import { workspaceEventRepository, type WorkspaceEventRow } from './event.repository.js';
import type { WorkspaceEvent } from './event.schema.js';

const DEFAULT_LIMIT = 50;

/** The workspace event log: what Meta tells a workspace about its account and number, kept and readable. */
export function createWorkspaceEventService({ db, clock, newId }: Deps) {
  return {
    /** Records each event for each workspace it concerns, in one statement. */
    async record(entries: { workspaceIds: string[]; event: AccountEvent }[]): Promise<void> {
      const createdAt = toStoredTimestamp(clock.now());
      await workspaceEventRepository(db).insert(
        entries.flatMap(({ workspaceIds, event }) =>
          workspaceIds.map((workspaceId) => {
            const id = newId();
            const details = JSON.stringify(event.details);
            const occurredAt = event.occurredAt && toStoredTimestamp(event.occurredAt);
            return {
              id,
              workspace_id: workspaceId,
              kind: event.field,
              summary: event.summary,
              details,
              occurred_at: occurredAt,
              dedupe_key: occurredAt === null ? id : digest(`${event.field}\n${occurredAt}\n${details}`),
              created_at: createdAt,
            };
          }),
        ),
      );
    },

    /** list-workspace-events: newest first. */
    async list(caller: Caller, limit = DEFAULT_LIMIT): Promise<WorkspaceEvent[]> {
      return (await workspaceEventRepository(db).latest(caller.workspaceId, limit)).map(presentEvent);
    },
  };
}

function presentEvent(row: WorkspaceEventRow): WorkspaceEvent {
  const details = JSON.parse(row.details) as Record<string, unknown>;
  return {
    id: row.id,
    kind: row.kind,
    summary: row.summary,
    reason: row.kind === 'errors' && typeof details.code === 'number' ? plainReason(details.code) : null,
    details,
    occurred_at: formatTimestamp(row.occurred_at),
    created_at: formatTimestamp(row.created_at),
  };
}

export type WorkspaceEventService = ReturnType<typeof createWorkspaceEventService>;

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
