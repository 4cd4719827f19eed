/**
 * The words a contact writes (or a button they tap) to stop or resume marketing, and what they are
 * told back. Pure: the workspace's lists come from opt-out.ts; these are the defaults and the
 * matching rule.
 */

export type Language = 'en' | 'fr' | 'es' | 'pt' | 'de' | 'it';

/** What an inbound text asks for. */
export type KeywordIntent = { action: 'stop' | 'start'; language: Language };

/**
 * Each default keyword with the language its confirmation is written in. `Stop promotions` is the
 * text of the marketing opt-out quick-reply button Meta adds to marketing templates.
 */
const STOP_WORDS: [string, Language][] = [
  ['STOP', 'en'],
  ['UNSUBSCRIBE', 'en'],
  ['STOP PROMOTIONS', 'en'],
  ['ARRÊT', 'fr'],
  ['DÉSABONNER', 'fr'],
  ['BAJA', 'es'],
  ['PARAR', 'pt'],
  ['SAIR', 'pt'],
  ['STOPP', 'de'],
  ['ABMELDEN', 'de'],
  ['DISISCRIVITI', 'it'],
];

const START_WORDS: [string, Language][] = [
  ['START', 'en'],
  ['SUBSCRIBE', 'en'],
  ['RESUME', 'en'],
  ['ABONNER', 'fr'],
  ['ALTA', 'es'],
  ['VOLTAR', 'pt'],
  ['ANMELDEN', 'de'],
  ['ISCRIVITI', 'it'],
];

export const DEFAULT_STOP_KEYWORDS = STOP_WORDS.map(([word]) => word);
export const DEFAULT_START_KEYWORDS = START_WORDS.map(([word]) => word);

/** The keyword a contact uses to resume, per language, named in the confirmation. */
const RESUME_WORD = new Map<Language, string>(
  START_WORDS.filter(([word]) => word !== 'SUBSCRIBE' && word !== 'RESUME').map(([word, language]) => [language, word]),
);

/** Per language: the confirmation, and the sentence naming the keyword that resumes (left out when there is none). */
const CONFIRMATIONS: Record<Language, [string, (resume: string) => string]> = {
  en: [
    'You are unsubscribed and will no longer receive marketing messages from us.',
    (w) => `Reply ${w} to subscribe again.`,
  ],
  fr: [
    'Vous êtes désabonné(e) et ne recevrez plus nos messages marketing.',
    (w) => `Répondez ${w} pour vous réabonner.`,
  ],
  es: [
    'Te has dado de baja y ya no recibirás nuestros mensajes de marketing.',
    (w) => `Responde ${w} para volver a suscribirte.`,
  ],
  pt: [
    'Sua inscrição foi cancelada e você não receberá mais nossas mensagens de marketing.',
    (w) => `Responda ${w} para voltar a receber.`,
  ],
  de: [
    'Sie sind abgemeldet und erhalten keine Marketing-Nachrichten mehr von uns.',
    (w) => `Antworten Sie ${w}, um sich wieder anzumelden.`,
  ],
  it: [
    "Hai annullato l'iscrizione e non riceverai più i nostri messaggi di marketing.",
    (w) => `Rispondi ${w} per iscriverti di nuovo.`,
  ],
};

const LANGUAGE_OF = new Map<string, Language>(
  [...STOP_WORDS, ...START_WORDS].map(([word, language]) => [normalizeKeyword(word), language]),
);

/**
 * The comparable form of a keyword or message: accents, case, surrounding punctuation and repeated
 * spaces do not count (`Arret !` matches `ARRÊT`), so a workspace lists each word once.
 */
export function normalizeKeyword(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether a whole message is one of the workspace's keywords. Only the whole message counts: "stop
 * sending me the wrong size" is a customer talking, not an opt-out. A keyword the workspace added
 * is answered in English unless it is one of the default words.
 */
export function keywordIntent(
  text: string,
  keywords: { stop: readonly string[]; start: readonly string[] },
): KeywordIntent | null {
  const said = normalizeKeyword(text);
  if (said === '') return null;
  const language = LANGUAGE_OF.get(said) ?? 'en';
  if (formsOf(keywords.stop).has(said)) return { action: 'stop', language };
  if (formsOf(keywords.start).has(said)) return { action: 'start', language };
  return null;
}

/** A keyword list's comparable forms, worked out once per list (a batch's messages share its settings). */
const FORMS = new WeakMap<readonly string[], ReadonlySet<string>>();

function formsOf(words: readonly string[]): ReadonlySet<string> {
  let forms = FORMS.get(words);
  if (!forms) FORMS.set(words, (forms = new Set(words.map(normalizeKeyword))));
  return forms;
}

/** The one message that tells a contact they are unsubscribed, in their language, naming how to come back. */
export function confirmationText(language: Language, startKeywords: readonly string[]): string {
  const [unsubscribed, resumeWith] = CONFIRMATIONS[language];
  const preferred = normalizeKeyword(RESUME_WORD.get(language) ?? 'START');
  const resume = startKeywords.find((word) => normalizeKeyword(word) === preferred) ?? startKeywords[0];
  return resume === undefined ? unsubscribed : `${unsubscribed} ${resumeWith(resume)}`;
}
