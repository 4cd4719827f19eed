import { sql, type Kysely, type Updateable } from 'kysely';
import type { ContactTable, Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { mergeAttributes } from './contact.input.js';
import { contactRepository, type ContactRow } from './contact.repository.js';
import type { Tagging } from './tagging.js';

/**
 * One contact to create or update, its fields already checked: a field left undefined is left as it
 * is on an existing contact; tags are added; attributes are merged (a null removes the key).
 */
export interface BulkContact {
  phone: string;
  name?: string | null;
  email?: string | null;
  tags: string[];
  attributes: Record<string, unknown>;
  optedOut?: boolean;
}

/** The contacts of one upsert: those created and those that existed (by phone). */
export interface BulkResult {
  created: ContactRow['id'][];
  existing: ContactRow['id'][];
}

/** Rows per transaction: one JSON parameter each, so the engines' bound-parameter limits do not apply. */
export const BULK_BATCH = 10000;

const NEW_ROW_COLUMNS = {
  id: 'uuid',
  workspace_id: 'uuid',
  phone: 'text',
  name: 'text',
  email: 'text',
  custom_attributes: 'jsonb',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
} as const;

/**
 * The one way contacts are created or updated by phone: create-contact, the dashboard's CSV import,
 * `parley import` (CSV and JSON). A batch is a handful of statements whatever its size: one
 * insert of the new rows, one read and per-row updates of the existing ones, one tag insert, one
 * opt-out update per direction.
 */
export function createContactBulk(deps: Pick<Deps, 'db' | 'dialect' | 'clock' | 'newId'>, tagging: Tagging) {
  const { db, dialect, clock, newId } = deps;

  /** Inserts the rows whose phone is free, in one statement; returns the phone → id of those inserted. */
  async function insertNew(trx: Kysely<Database>, workspaceId: string, rows: BulkContact[], at: string) {
    const values = rows.map((row) => ({
      id: newId(),
      workspace_id: workspaceId,
      phone: row.phone,
      name: row.name ?? null,
      email: row.email ?? null,
      custom_attributes: mergeAttributes({}, row.attributes),
      created_at: at,
      updated_at: at,
    }));
    // `WHERE true`: SQLite's parser would read the upsert's ON as a join's without it.
    const columns = sql.join(Object.keys(NEW_ROW_COLUMNS).map((column) => sql.ref(column)));
    const { rows: inserted } = await sql<{ id: string; phone: string }>`INSERT INTO contacts (${columns})
      SELECT ${columns} FROM ${jsonRows(dialect, values, NEW_ROW_COLUMNS)} WHERE true
      ON CONFLICT (workspace_id, phone) DO NOTHING RETURNING id, phone`.execute(trx);
    return new Map(inserted.map((row) => [row.phone, row.id]));
  }

  /** Writes the given fields of rows whose phone was taken; returns the phone → id of those contacts. */
  async function updateExisting(trx: Kysely<Database>, workspaceId: string, rows: BulkContact[], at: string) {
    const contacts = contactRepository(trx);
    const found = await contacts.findByPhones(
      workspaceId,
      rows.map((row) => row.phone),
    );
    const byPhone = new Map(found.map((row) => [row.phone, row]));
    for (const row of rows) {
      const existing = byPhone.get(row.phone)!;
      await contacts.update(workspaceId, existing.id, { ...contactChanges(existing, row), updated_at: at });
    }
    return new Map(found.map((row) => [row.phone, row.id]));
  }

  /** One batch (phones distinct) in the caller's transaction. */
  async function upsertBatch(trx: Kysely<Database>, workspaceId: string, rows: BulkContact[]): Promise<BulkResult> {
    const at = toStoredTimestamp(clock.now());
    const inserted = await insertNew(trx, workspaceId, rows, at);
    const taken = rows.filter((row) => !inserted.has(row.phone));
    const updated = taken.length > 0 ? await updateExisting(trx, workspaceId, taken, at) : new Map<string, string>();
    const idOf = (row: BulkContact) => inserted.get(row.phone) ?? updated.get(row.phone)!;
    await tagging.addTags(
      trx,
      workspaceId,
      rows.map((row) => ({ contactId: idOf(row), names: row.tags })),
    );
    for (const optedOut of [true, false]) {
      const ids = rows.filter((row) => row.optedOut === optedOut).map(idOf);
      await contactRepository(trx).setOptedOutAll(workspaceId, ids, optedOut, at);
    }
    return { created: [...inserted.values()], existing: [...updated.values()] };
  }

  return {
    upsertBatch,

    /** Upserts rows (phones distinct) in batches of BULK_BATCH, one transaction each; returns how many it created. */
    async upsert(caller: Caller, rows: BulkContact[]): Promise<number> {
      let created = 0;
      for (let start = 0; start < rows.length; start += BULK_BATCH) {
        const batch = rows.slice(start, start + BULK_BATCH);
        const result = await db.transaction().execute((trx) => upsertBatch(trx, caller.workspaceId, batch));
        created += result.created.length;
      }
      return created;
    },

    /** How many of these phones are not yet contacts (a dry run's "would be created"). */
    async countNew(caller: Caller, phones: string[]): Promise<number> {
      let known = 0;
      for (let start = 0; start < phones.length; start += BULK_BATCH) {
        const batch = phones.slice(start, start + BULK_BATCH);
        known += (await contactRepository(db).findByPhones(caller.workspaceId, batch)).length;
      }
      return phones.length - known;
    },
  };
}

/** The fields a create-or-update changes on an existing contact: only those it gives. */
export function contactChanges(
  existing: ContactRow,
  row: Pick<BulkContact, 'name' | 'email' | 'attributes'>,
): Updateable<ContactTable> {
  const attributes = JSON.parse(existing.custom_attributes) as Record<string, unknown>;
  return {
    // A name a person gave is never replaced by a WhatsApp profile name.
    ...(row.name !== undefined && { name: row.name, name_from_whatsapp: 0 }),
    ...(row.email !== undefined && { email: row.email }),
    ...(Object.keys(row.attributes).length > 0 && {
      custom_attributes: JSON.stringify(mergeAttributes(attributes, row.attributes)),
    }),
  };
}

export type ContactBulk = ReturnType<typeof createContactBulk>;
