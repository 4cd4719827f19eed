import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors, validOrNull } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { InboundListener, ReceivedMessage, Outbound } from '../messages/index.js';
import { textContent } from '../content/message-content.js';
import {
  parseName,
  parsePhone,
  contactRepository,
  newContactRow,
  type ContactRow,
  contactProblems,
} from '../contacts/index.js';
import { confirmationText, keywordIntent, normalizeKeyword, type Language } from './opt-out.keywords.js';
import { optOutRepository, type OptOutSettings } from './opt-out.repository.js';
import { KEYWORD_MAX_LENGTH, type UpdateOptOutSettingsInput } from './opt-out.schema.js';

/** A contact's change of mind; `language` is set when they wrote it (and may be answered), null when Meta told us. */
interface Intent {
  action: 'stop' | 'start';
  language: Language | null;
}

/** Meta's `user_preferences` marketing stop/resume for one WhatsApp user (see whatsapp.payload.ts). */
export interface MarketingPreference {
  /** The user's wa_id with a leading `+`. */
  from: string;
  profileName: string | null;
  value: 'stop' | 'resume';
}

/**
 * Opt-out a business can rely on: a keyword or the marketing opt-out button in an inbound message,
 * or Meta's marketing preference webhook, opts a contact out of marketing (or back in); a contact
 * who opts out by writing is told so once, when the workspace wants that (the default).
 */
export function createOptOutService(deps: Deps, outbound: Outbound) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /**
   * The one confirmation, queued in the receiving transaction: a service reply in the window the
   * keyword just opened, which the sending rules allow an opted-out contact (a keyword Meta delivers
   * too late to answer is refused by them, and goes unanswered).
   */
  async function sendConfirmation(trx: Deps['db'], contact: ContactRow, body: string) {
    await outbound.queueNow(trx, contact, textContent(body), { type: 'system', id: null });
  }

  /** Applies one intent; on a fresh opt-out the contact wrote, tells them once (when `settings` want it). */
  async function apply(
    trx: Deps['db'],
    workspaceId: string,
    contact: ContactRow,
    intent: Intent,
    settings: OptOutSettings | null,
  ) {
    const changed = await contactRepository(trx).setOptedOut(workspaceId, contact.id, intent.action === 'stop', now());
    if (changed && intent.action === 'stop' && intent.language && settings?.confirm) {
      await sendConfirmation(trx, contact, confirmationText(intent.language, settings.start_keywords));
    }
  }

  const listener: InboundListener = {
    async received(trx, workspaceId, messages) {
      const candidates = messages.filter(mayChangeMind);
      if (candidates.length === 0) return; // media, long texts: no settings read
      const settings = await optOutRepository(trx).settings(workspaceId);
      for (const message of candidates) {
        const intent = intentOf(message, settings);
        if (intent) await apply(trx, workspaceId, message.contact, intent, settings);
      }
    },
  };

  return {
    /** Hook into the inbound path (services.ts), before the engines that may message the contact. */
    listener,

    /**
     * Whether a text is one of the workspace's opt-out keywords (the AI assistant hands such a message to a
     * person); read in the caller's transaction when given one.
     */
    async isStopKeyword(within: Deps['db'], workspaceId: string, text: string): Promise<boolean> {
      const settings = await optOutRepository(within).settings(workspaceId);
      return keywordIntent(text, { stop: settings.stop_keywords, start: [] })?.action === 'stop';
    },

    /** The workspace's keyword lists and confirmation setting (the defaults until changed). */
    get: (caller: Caller): Promise<OptOutSettings> => optOutRepository(db).settings(caller.workspaceId),

    /** Changes the fields given; keyword lists are replaced whole. */
    async update(caller: Caller, input: UpdateOptOutSettingsInput): Promise<OptOutSettings> {
      return db.transaction().execute(async (trx) => {
        const settings = optOutRepository(trx);
        const current = await settings.settings(caller.workspaceId);
        const next = checkedSettings({
          stop_keywords: input.stop_keywords ?? current.stop_keywords,
          start_keywords: input.start_keywords ?? current.start_keywords,
          confirm: input.confirm ?? current.confirm,
        });
        await settings.save(caller.workspaceId, next, now());
        return next;
      });
    },

    /**
     * Applies Meta's marketing preferences in one transaction. A number Parley does not know yet
     * becomes a contact, so its opt-out holds when it is imported later. Nobody is messaged: the
     * user changed the setting in WhatsApp, which tells them itself. Says for each whether it applied
     * (not when the wa_id is no phone number).
     */
    async applyPreferences(caller: Caller, preferences: MarketingPreference[]): Promise<boolean[]> {
      return db.transaction().execute(async (trx) => {
        const applied: boolean[] = [];
        for (const preference of preferences) {
          const contact = await contactOf(trx, caller.workspaceId, preference);
          const intent: Intent = { action: preference.value === 'stop' ? 'stop' : 'start', language: null };
          if (contact) await apply(trx, caller.workspaceId, contact, intent, null);
          applied.push(contact !== null);
        }
        return applied;
      });
    },
  };

  /** The contact with the preference's number, created when unknown; null when the wa_id is no phone number. */
  async function contactOf(trx: Deps['db'], workspaceId: string, preference: MarketingPreference) {
    const phone = validOrNull(() => parsePhone(preference.from));
    if (phone === null) return null;
    const contacts = contactRepository(trx);
    const row = newContactRow({
      id: newId(),
      workspaceId,
      phone,
      name: parseName(preference.profileName ?? ''),
      email: null,
      customAttributes: '{}',
      at: now(),
    });
    await contacts.insertIfAbsent(row);
    return (await contacts.findByPhone(workspaceId, phone))!;
  }
}

/** The texts in a message a keyword is matched on: what they typed, or the button they tapped. */
function wordsOf(message: ReceivedMessage): string[] {
  const content = message.content;
  const text = (value: unknown) => (typeof value === 'string' && value.length <= KEYWORD_MAX_LENGTH ? [value] : []);
  switch (message.type) {
    case 'text':
      return text(content.body);
    case 'button': // a template's quick reply, e.g. the marketing opt-out button ("Stop promotions")
      return [...text(content.text), ...text(content.payload)];
    case 'interactive':
      return text((content.button_reply as { title?: unknown } | undefined)?.title);
    default:
      return [];
  }
}

/** Meta's older form of the preference webhook: a `system` message of type `user_preference_changed`. */
function systemPreference(message: ReceivedMessage): Intent | null {
  const { type, marketing } = message.content;
  if (message.type !== 'system' || type !== 'user_preference_changed') return null;
  if (marketing === 'stop') return { action: 'stop', language: null };
  if (marketing === 'resume') return { action: 'start', language: null };
  return null;
}

function mayChangeMind(message: ReceivedMessage): boolean {
  return wordsOf(message).length > 0 || systemPreference(message) !== null;
}

function intentOf(message: ReceivedMessage, settings: OptOutSettings): Intent | null {
  const keywords = { stop: settings.stop_keywords, start: settings.start_keywords };
  for (const words of wordsOf(message)) {
    const intent = keywordIntent(words, keywords);
    if (intent) return intent;
  }
  return systemPreference(message);
}

/** Settings as saved: keywords trimmed and de-duplicated; a word in both lists is refused (400). */
function checkedSettings(settings: OptOutSettings): OptOutSettings {
  const stop = distinctKeywords(settings.stop_keywords, 'stop_keywords');
  const start = distinctKeywords(settings.start_keywords, 'start_keywords');
  const stopForms = new Set(stop.map(normalizeKeyword));
  const both = start.find((word) => stopForms.has(normalizeKeyword(word)));
  if (both !== undefined)
    throw errors.invalid(contactProblems.problem('start_keywords', 'keyword_in_both_lists', { keyword: both }));
  return { stop_keywords: stop, start_keywords: start, confirm: settings.confirm };
}

function distinctKeywords(words: string[], field: string): string[] {
  const seen = new Map<string, string>();
  for (const word of words) {
    const form = normalizeKeyword(word);
    if (form === '') throw errors.invalid(contactProblems.problem(field, 'keyword_without_letters', { word }));
    if (!seen.has(form)) seen.set(form, word.trim());
  }
  return [...seen.values()];
}

export type OptOutService = ReturnType<typeof createOptOutService>;
