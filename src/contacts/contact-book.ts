import type { ContactBookEvent } from '../channels/index.js';
import type { Deps } from '../db/deps.js';
import { NAME_SOURCE } from '../db/schema.js';
import type { Caller } from '../shared/context.js';
import { normalizePhone } from '../shared/phone.js';
import { toStoredTimestamp } from '../shared/time.js';
import { parseName } from './contact.input.js';
import { contactRepository, newContactRow } from './contact.repository.js';

/**
 * The WhatsApp Business app's contact book on a number Parley also uses (coexistence): a person the
 * business adds there becomes a contact, named as the business named them, unless a name was typed in
 * Parley, which is never overwritten. A removal from the app's book deletes nothing here: the
 * customer's history stays, and the removal is in the workspace event log.
 */
export function createContactBook({ db, clock, newId }: Pick<Deps, 'db' | 'clock' | 'newId'>) {
  return {
    /** Applies one entry; true when it created or renamed a contact. */
    async apply(caller: Caller, entry: ContactBookEvent): Promise<boolean> {
      if (entry.action === 'remove') return false;
      const workspaceId = caller.workspaceId;
      const phone = normalizePhone(`+${entry.phone}`) ?? `+${entry.phone}`;
      const name = parseName(entry.fullName ?? '');
      const at = toStoredTimestamp(clock.now());
      const contacts = contactRepository(db);
      const row = newContactRow({ id: newId(), workspaceId, phone, name, email: null, customAttributes: '{}', at });
      // The business's name for them stands until the book renames them or someone types one in Parley;
      // their WhatsApp profile name never replaces it.
      const source = name === null ? NAME_SOURCE.parley : NAME_SOURCE.businessApp;
      if (await contacts.insertIfAbsent({ ...row, name_from_whatsapp: source })) return true;
      const existing = await contacts.findByPhone(workspaceId, phone);
      const typedInParley = existing?.name !== null && existing?.name_from_whatsapp === NAME_SOURCE.parley;
      if (!existing || name === null || typedInParley || existing.name === name) return false;
      await contacts.update(workspaceId, existing.id, { name, name_from_whatsapp: NAME_SOURCE.businessApp });
      return true;
    },
  };
}

export type ContactBookService = ReturnType<typeof createContactBook>;
