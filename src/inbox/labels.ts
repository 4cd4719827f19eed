import type { Kysely, Selectable } from 'kysely';
import { isUniqueViolation } from '../db/sql.js';
import type { ConversationLabelTable, Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { commonProblems } from '../shared/common.problems.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { inboxProblems } from './inbox.problems.js';

type LabelRow = Selectable<ConversationLabelTable>;

/** A workspace's conversation label, as the API and the dashboard show it. */
export interface Label {
  id: string;
  name: string;
  /** `#rrggbb`. */
  colour: string;
  created_at: string;
}

/** Labels per workspace: a team's working set, small by nature. */
const LABELS_MAX = 200;
/** The colour a label gets when none is given. */
const DEFAULT_COLOUR = '#6b7280';

/** Label names compare case-insensitively: "Refund" and "refund" are one label. */
const keyOf = (name: string) => name.trim().toLowerCase();

const present = (row: LabelRow): Label => ({
  id: row.id,
  name: row.name,
  colour: row.colour,
  created_at: formatTimestamp(row.created_at),
});

/** SQL for labels and their links to conversations; every query is scoped to one workspace. */
export function labelRepository(db: Kysely<Database>) {
  return {
    list: (workspaceId: string) =>
      db
        .selectFrom('conversation_labels')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('name_key')
        .execute(),

    byNames: (workspaceId: string, names: string[]) =>
      names.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('conversation_labels')
            .selectAll()
            .where('workspace_id', '=', workspaceId)
            .where('name_key', 'in', names.map(keyOf))
            .execute(),

    byId: (workspaceId: string, id: string) =>
      db
        .selectFrom('conversation_labels')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /** Each conversation's labels, by contact id (alphabetical). */
    async ofConversations(workspaceId: string, contactIds: string[]): Promise<Map<string, Label[]>> {
      const byContact = new Map<string, Label[]>();
      if (contactIds.length === 0) return byContact;
      const rows = await db
        .selectFrom('conversation_label_links as l')
        .innerJoin('conversation_labels as cl', 'cl.id', 'l.label_id')
        .selectAll('cl')
        .select('l.contact_id')
        .where('l.workspace_id', '=', workspaceId)
        .where('l.contact_id', 'in', contactIds)
        .orderBy('cl.name_key')
        .execute();
      for (const row of rows) byContact.set(row.contact_id, [...(byContact.get(row.contact_id) ?? []), present(row)]);
      return byContact;
    },

    /** Links the labels to the conversations; links that exist stay as they are. */
    async link(workspaceId: string, contactIds: string[], labelIds: string[], at: string): Promise<void> {
      const rows = contactIds.flatMap((contactId) =>
        labelIds.map((labelId) => ({
          contact_id: contactId,
          label_id: labelId,
          workspace_id: workspaceId,
          created_at: at,
        })),
      );
      for (let i = 0; i < rows.length; i += 500) {
        await db
          .insertInto('conversation_label_links')
          .values(rows.slice(i, i + 500))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    },

    /** Takes every label but `keep` off the conversation. */
    async unlinkOthers(workspaceId: string, contactId: string, keep: string[]): Promise<void> {
      let query = db
        .deleteFrom('conversation_label_links')
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', '=', contactId);
      if (keep.length > 0) query = query.where('label_id', 'not in', keep);
      await query.execute();
    },

    insert: (row: LabelRow) => db.insertInto('conversation_labels').values(row).execute(),

    update: (
      workspaceId: string,
      id: string,
      fields: Partial<Pick<LabelRow, 'name' | 'name_key' | 'colour'>>,
      at: string,
    ) =>
      db
        .updateTable('conversation_labels')
        .set({ ...fields, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute(),

    async remove(workspaceId: string, id: string): Promise<void> {
      await db
        .deleteFrom('conversation_label_links')
        .where('workspace_id', '=', workspaceId)
        .where('label_id', '=', id)
        .execute();
      await db.deleteFrom('conversation_labels').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    count: async (workspaceId: string) =>
      Number(
        (
          await db
            .selectFrom('conversation_labels')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}

/** The workspace's label set: create, rename or recolour, delete (conversations lose the label). */
export function createLabelService({ db, clock, newId }: Deps) {
  const labels = () => labelRepository(db);
  const now = () => toStoredTimestamp(clock.now());

  async function existing(workspaceId: string, id: string): Promise<LabelRow> {
    const row = await labels().byId(workspaceId, id);
    if (!row) throw errors.notFound('label', 'label_id');
    return row;
  }

  /** A name another label has is a 409 on `name`; the unique index settles a race the same way. */
  async function uniquely<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.taken(inboxProblems.problem('name', 'label_name_taken'));
      throw error;
    }
  }

  return {
    /** Every label of the workspace, alphabetical. */
    list: async (workspaceId: string): Promise<Label[]> => (await labels().list(workspaceId)).map(present),

    async create(workspaceId: string, input: { name: string; colour?: string | undefined }): Promise<Label> {
      const name = requiredName(input.name);
      if ((await labels().count(workspaceId)) >= LABELS_MAX) {
        throw errors.invalid(inboxProblems.problem('name', 'too_many_labels', { max: LABELS_MAX }));
      }
      const at = now();
      const row = {
        id: newId(),
        workspace_id: workspaceId,
        name,
        name_key: keyOf(name),
        colour: (input.colour ?? DEFAULT_COLOUR).toLowerCase(),
        created_at: at,
        updated_at: at,
      };
      await uniquely(() => labels().insert(row));
      return present(row);
    },

    async update(workspaceId: string, id: string, input: { name?: string | undefined; colour?: string | undefined }) {
      const row = await existing(workspaceId, id);
      const name = input.name === undefined ? row.name : requiredName(input.name);
      const colour = input.colour?.toLowerCase() ?? row.colour;
      await uniquely(() => labels().update(workspaceId, id, { name, name_key: keyOf(name), colour }, now()));
      return present({ ...row, name, colour });
    },

    async remove(workspaceId: string, id: string) {
      const row = await existing(workspaceId, id);
      await labels().remove(workspaceId, id);
      return { id: row.id, deleted: true as const };
    },

    /** The labels with these names (case-insensitive); an unknown one is a 422 on `field`. */
    async named(workspaceId: string, names: string[], field: string): Promise<LabelRow[]> {
      const rows = await labels().byNames(workspaceId, names);
      const known = new Set(rows.map((row) => row.name_key));
      const unknown = names.find((name) => !known.has(keyOf(name)));
      if (unknown !== undefined)
        throw errors.invalid(inboxProblems.problem(field, 'unknown_label', { label: unknown }));
      return rows;
    },
  };
}

function requiredName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw errors.invalid(commonProblems.problem('name', 'required'));
  return trimmed;
}

export type LabelService = ReturnType<typeof createLabelService>;
