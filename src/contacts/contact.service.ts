import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { cutPage, type CursorCodec, type Page, type PageRequest } from '../shared/cursor.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { tagRepository } from '../tags/index.js';
import { given, parseEmail, parseName, parsePhone, parseTagNames } from './contact.input.js';
import { presentContact } from './contact.presenter.js';
import { contactRepository, type ContactRow } from './contact.repository.js';
import type {
  Contact,
  ContactRef,
  CreateContactInput,
  GetContactInput,
  SearchContactsInput,
  UpdateContactInput,
} from './contact.schema.js';
import { searchContacts, searchContactsById, type ContactSearch } from './contact.search.js';
import type { Tagging } from './tagging.js';
import { contactChanges, type BulkContact, type ContactBulk } from './contact.bulk.js';
import { commonProblems } from '../shared/common.problems.js';
import { contactProblems } from './contact.problems.js';

/** The spec's limit on search-contacts. */
export const SEARCH_LIMIT = 50;

/** Contacts: upsert by phone, lookups by id/phone/email, search, tagging. */
export function createContactService(deps: Deps, tagging: Tagging, cursors: CursorCodec, bulk: ContactBulk) {
  // Searches read beside other requests (connection.ts); everything else reads and writes on `db`.
  const { db, reads, dialect, clock } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function present(trx: Kysely<Database>, row: ContactRow): Promise<Contact> {
    return presentContact(row, await contactRepository(trx).tagNamesOf(row.id));
  }

  async function presentAll(rows: ContactRow[]): Promise<Contact[]> {
    const tags = await contactRepository(reads).tagNames(rows.map((row) => row.id));
    return rows.map((row) => presentContact(row, tags.get(row.id) ?? []));
  }

  /** The search a request's filters describe, or null when its tag does not exist (nothing matches). */
  async function resolveSearch(caller: Caller, filters: SearchFilters): Promise<Omit<ContactSearch, 'limit'> | null> {
    let tagId: string | undefined;
    if (filters.tag) {
      const tag = await tagRepository(db).findByName(caller.workspaceId, filters.tag);
      if (!tag) return null;
      tagId = tag.id;
    }
    return {
      workspaceId: caller.workspaceId,
      ...(filters.query && { query: filters.query }),
      ...(tagId && { tagId }),
      ...(filters.email && { email: filters.email }),
    };
  }

  /** Marks a contact changed (its tags) and returns it as the API shows it. */
  async function touchAndPresent(trx: Kysely<Database>, caller: Caller, contactId: string): Promise<Contact> {
    const contacts = contactRepository(trx);
    await contacts.update(caller.workspaceId, contactId, { updated_at: now() });
    return present(trx, (await contacts.findById(caller.workspaceId, contactId))!);
  }

  /** Finds the contact a request names by `contact_id` or `phone`, or throws not_found. */
  async function resolve(trx: Kysely<Database>, caller: Caller, ref: ContactRef): Promise<ContactRow> {
    const contacts = contactRepository(trx);
    const id = given(ref.contact_id);
    const phone = given(ref.phone);
    if (id) {
      const row = await contacts.findById(caller.workspaceId, id);
      if (!row) throw errors.notFound('contact', 'contact_id');
      return row;
    }
    if (phone) {
      const row = await contacts.findByPhone(caller.workspaceId, parsePhone(phone));
      if (!row) throw errors.notFound('contact', 'phone');
      return row;
    }
    throw errors.invalid(contactProblems.problem('contact_id', 'contact_id_or_phone'));
  }

  return {
    /** Upsert keyed by phone: creates the contact, or updates the given fields of the existing one. */
    async create(caller: Caller, input: CreateContactInput): Promise<{ contact: Contact; created: boolean }> {
      const row = bulkRowOf(input);
      return db.transaction().execute(async (trx) => {
        const { created, existing } = await bulk.upsertBatch(trx, caller.workspaceId, [row]);
        const id = created[0] ?? existing[0]!;
        const stored = (await contactRepository(trx).findById(caller.workspaceId, id))!;
        return { contact: await present(trx, stored), created: created.length === 1 };
      });
    },

    /**
     * The dashboard's Add contact: creates, never updates. A person adding a contact means a new one,
     * so a phone that is already a contact's is refused (naming that contact) and nothing changes.
     */
    async add(caller: Caller, input: CreateContactInput): Promise<Contact> {
      const row = bulkRowOf(input);
      return db.transaction().execute(async (trx) => {
        const holder = await contactRepository(trx).findByPhone(caller.workspaceId, row.phone);
        if (holder) throw errors.phoneTaken(holder);
        const { created } = await bulk.upsertBatch(trx, caller.workspaceId, [row]);
        // Added by someone else since the look-up: throwing rolls the upsert's update back.
        if (!created[0]) throw errors.phoneTaken(null);
        return present(trx, (await contactRepository(trx).findById(caller.workspaceId, created[0]))!);
      });
    },

    /** Writes only the fields present; `""` clears name or email; `tags` replaces the set. */
    async update(caller: Caller, input: UpdateContactInput): Promise<Contact> {
      const newPhone = given(input.contact_id) && given(input.phone) ? parsePhone(input.phone!) : undefined;
      const email = input.email === undefined ? undefined : parseEmail(input.email);
      const tagNames = input.tags === undefined ? undefined : parseTagNames(input.tags);
      return db.transaction().execute(async (trx) => {
        const contacts = contactRepository(trx);
        const row = await resolve(trx, caller, input);
        if (newPhone && newPhone !== row.phone && (await contacts.findByPhone(caller.workspaceId, newPhone))) {
          throw errors.conflict(`Another contact already has the phone ${newPhone}`, { field: 'phone' });
        }
        await contacts.update(caller.workspaceId, row.id, {
          ...(newPhone !== undefined && { phone: newPhone }),
          ...contactChanges(row, {
            ...(input.name !== undefined && { name: parseName(input.name) }),
            ...(email !== undefined && { email }),
            attributes: input.metadata ?? {},
          }),
          updated_at: now(),
        });
        if (tagNames) await tagging.replaceTags(trx, caller.workspaceId, row.id, tagNames);
        if (input.opted_out !== undefined)
          await contacts.setOptedOut(caller.workspaceId, row.id, input.opted_out, now());
        return present(trx, (await contacts.findById(caller.workspaceId, row.id))!);
      });
    },

    /** One contact by exactly one of contact_id, phone or email. */
    /** The contact a message is for, named by `contact_id` or `phone` (not_found when unknown). */
    recipient: (caller: Caller, ref: ContactRef): Promise<ContactRow> => resolve(db, caller, ref),

    /**
     * Like recipient, but an unknown phone becomes a new contact (named `name` if given): a template
     * may open a conversation, and an inbound message may come from anyone.
     */
    async recipientOrNew(caller: Caller, ref: ContactRef, name: string | null = null): Promise<ContactRow> {
      const phone = given(ref.phone);
      if (given(ref.contact_id) || !phone) return resolve(db, caller, ref);
      const contacts = contactRepository(db);
      const e164 = parsePhone(phone);
      const existing = await contacts.findByPhone(caller.workspaceId, e164);
      if (existing) return existing;
      await this.create(caller, { phone: e164, ...(name && { name }) });
      return (await contacts.findByPhone(caller.workspaceId, e164))!;
    },

    async get(caller: Caller, input: GetContactInput): Promise<Contact> {
      const keys = (['contact_id', 'phone', 'email'] as const).filter((key) => given(input[key]) !== undefined);
      if (keys.length !== 1)
        throw errors.invalid(contactProblems.problem(keys[1] ?? 'contact_id', 'one_of_contact_id_phone_email'));
      const contacts = contactRepository(db);
      if (keys[0] === 'email') {
        const email = parseEmail(input.email!);
        const row = email === null ? undefined : await contacts.findByEmail(caller.workspaceId, email);
        if (!row) throw errors.notFound('contact', 'email');
        return present(db, row);
      }
      const shown =
        keys[0] === 'contact_id'
          ? await contacts.findShown(dialect, caller.workspaceId, 'id', given(input.contact_id)!)
          : await contacts.findShown(dialect, caller.workspaceId, 'phone', parsePhone(given(input.phone)!));
      if (!shown) throw errors.notFound('contact', keys[0]);
      return presentContact(shown, JSON.parse(shown.tag_names) as string[]);
    },

    /** search-contacts: at most 50, newest conversation first; empty strings are no filter. */
    async search(caller: Caller, input: SearchContactsInput): Promise<Contact[]> {
      const filters = searchFilters(input);
      const search = await resolveSearch(caller, filters);
      const rows = search ? await searchContacts(reads, dialect, { ...search, limit: SEARCH_LIMIT }) : [];
      return presentAll(rows);
    },

    /** search-contacts with `paginate=cursor`: the same filters, in id order, a page at a time. */
    async searchPage(caller: Caller, input: SearchContactsInput, page: PageRequest): Promise<Page<Contact>> {
      const filters = searchFilters(input);
      const scope = { workspaceId: caller.workspaceId, endpoint: 'search-contacts', filters };
      const afterId = page.cursor === undefined ? null : cursors.decode(scope, page.cursor)[0]!;
      const search = await resolveSearch(caller, filters);
      const rows = search
        ? await searchContactsById(reads, dialect, { ...search, afterId, limit: page.limit + 1 })
        : [];
      const { rows: shown, next_cursor } = cutPage(rows, page.limit, (row) => cursors.encode(scope, [row.id]));
      return { data: shown.map((row) => presentContact(row, JSON.parse(row.tag_names) as string[])), next_cursor };
    },

    /** Adds a tag (created if unknown) to a contact; adding it twice is harmless. */
    async addTag(caller: Caller, ref: ContactRef, tag: string): Promise<Contact> {
      const [name] = parseTagNames([tag], 'tag');
      if (!name) throw errors.invalid(commonProblems.problem('tag', 'must_not_be_empty'));
      return db.transaction().execute(async (trx) => {
        const row = await resolve(trx, caller, ref);
        await tagging.addTags(trx, caller.workspaceId, [{ contactId: row.id, names: [name] }]);
        return touchAndPresent(trx, caller, row.id);
      });
    },

    /** Records that a contact opted out of marketing (or opted back in); an existing opt-out keeps its date. */
    async setOptedOut(caller: Caller, contactId: string, optedOut: boolean): Promise<void> {
      await contactRepository(db).setOptedOut(caller.workspaceId, contactId, optedOut, now());
    },

    /** Removes a tag from a contact; removing a tag it does not carry is harmless. */
    async removeTag(caller: Caller, ref: ContactRef, tag: string): Promise<Contact> {
      return db.transaction().execute(async (trx) => {
        const row = await resolve(trx, caller, ref);
        if (!(await tagRepository(trx).findByName(caller.workspaceId, tag))) return present(trx, row);
        await tagging.removeTags(trx, caller.workspaceId, [row.id], [tag]);
        return touchAndPresent(trx, caller, row.id);
      });
    },

    /**
     * Adds a tag to (or removes it from) many contacts in one transaction, as add-tag/remove-tag
     * would one by one (so a tag still ends the sequences it exits); an unknown id changes nothing.
     */
    async tagMany(caller: Caller, contactIds: string[], tag: string, action: 'add' | 'remove'): Promise<number> {
      const [name] = parseTagNames([tag], 'tag');
      if (!name) throw errors.invalid(commonProblems.problem('tag', 'must_not_be_empty'));
      const ids = [...new Set(contactIds)];
      return db.transaction().execute(async (trx) => {
        const contacts = contactRepository(trx);
        const rows = await contacts.findByIds(caller.workspaceId, ids);
        if (rows.length !== ids.length) throw errors.notFound('contact', 'contact_ids');
        if (action === 'add') {
          await tagging.addTags(
            trx,
            caller.workspaceId,
            ids.map((contactId) => ({ contactId, names: [name] })),
          );
        } else await tagging.removeTags(trx, caller.workspaceId, ids, [name]);
        for (const id of ids) await contacts.update(caller.workspaceId, id, { updated_at: now() });
        return rows.length;
      });
    },
  };
}

/** create-contact's input, checked, as one row of the bulk upsert. */
function bulkRowOf(input: CreateContactInput): BulkContact {
  return {
    phone: parsePhone(input.phone),
    ...(input.name !== undefined && { name: parseName(input.name) }),
    ...(input.email !== undefined && { email: parseEmail(input.email) }),
    tags: input.tags === undefined ? [] : parseTagNames(input.tags),
    attributes: input.metadata ?? {},
    ...(input.opted_out !== undefined && { optedOut: input.opted_out }),
  };
}

type SearchFilters = { query?: string | undefined; tag?: string | undefined; email?: string | undefined };

/** search-contacts' filters, trimmed and lower-cased as they all match regardless of case; "" is no filter. */
function searchFilters(input: SearchContactsInput): SearchFilters {
  const filter = (value: string | undefined) => given(value)?.trim().toLowerCase() || undefined;
  return { query: filter(input.query), tag: filter(input.tag), email: filter(input.email) };
}

export type ContactService = ReturnType<typeof createContactService>;
