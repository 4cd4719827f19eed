/** The contact attribute that states which language a customer reads (set by hand, an import or a flow). */
export const LANGUAGE_ATTRIBUTE = 'language';

/** A language as the model is told it: a tag's English name with the tag, or a name as a person wrote it. */
export interface CustomerLanguage {
  described: string;
}

const englishNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** `pt-BR` → "Brazilian Portuguese (pt-BR)"; anything not a language tag (e.g. "Portuguese") as it is. */
export function describeLanguage(given: string): string {
  const text = given.trim();
  try {
    const [tag] = Intl.getCanonicalLocales(text.replace(/_/g, '-'));
    const name = tag && englishNames.of(tag);
    return name ? `${name} (${tag})` : text;
  } catch {
    return text; // not a language tag: a name, as someone wrote it
  }
}

/** The customer's stated language (their contact's `language` attribute), or null when it states none. */
export function customerLanguage(customAttributes: string): CustomerLanguage | null {
  const value = (JSON.parse(customAttributes) as Record<string, unknown>)[LANGUAGE_ATTRIBUTE];
  if (typeof value !== 'string' || !value.trim()) return null;
  return { described: describeLanguage(value.slice(0, 64)) };
}
