/** What placeholders in a step's text or template variables can name. */
export interface RenderScope {
  contact: { name: string | null; phone: string; email: string | null; custom_attributes: string };
  context: Record<string, unknown>;
}

/** `{{ path }}` or `{{ path | "fallback" }}`, with the spaces before it (see `render` for why). */
const PLACEHOLDER =
  /([ \t]*)\{\{\s*(contact\.(?:first_name|name|phone|email)|(?:attributes|context|answer)(?:\.[\w-]+)+)\s*(?:\|\s*"([^"{}]*)"\s*)?\}\}/g;
/** After an empty placeholder, these make the space before it a stray one: "Hi , how…", "Hi !". */
const CLOSES_A_PHRASE = /^(?:$|[\s,.;:!?)])/;

/**
 * Fills `{{contact.name}}`, `{{contact.first_name}}` (the name's first word), `{{contact.phone}}`,
 * `{{contact.email}}`, `{{attributes.KEY}}` (custom attributes), `{{context.KEY}}` (the run's
 * context) and `{{answer.FIELD}}` (the latest WhatsApp Flow answer: the context's `answer`), with dotted
 * paths into objects (`{{context.webhook.status}}`); anything else is literal.
 * An empty value takes the placeholder's fallback (`{{contact.first_name | "there"}}`); without one it
 * renders as nothing, and so does the space before it when punctuation or the end follows, so
 * "Hi {{contact.first_name}}, how can we help?" reads "Hi, how can we help?" rather than "Hi , how…".
 */
export function render(text: string, scope: RenderScope): string {
  let attributes: Record<string, unknown> | undefined;
  const valueOf = (path: string): string => {
    const [root, ...keys] = path.split('.') as [string, ...string[]];
    if (root === 'contact') return contactField(scope.contact, keys[0]!);
    if (root === 'attributes') attributes ??= JSON.parse(scope.contact.custom_attributes) as Record<string, unknown>;
    const from = root === 'attributes' ? attributes : root === 'answer' ? scope.context.answer : scope.context;
    const value = keys.reduce<unknown>(
      (object, key) => (object && typeof object === 'object' ? (object as Record<string, unknown>)[key] : undefined),
      from,
    );
    return stringOf(value);
  };
  return text.replace(
    PLACEHOLDER,
    (match, space: string, path: string, fallback: string | undefined, offset: number) => {
      const found = valueOf(path);
      const value = found.trim() === '' ? (fallback ?? '') : found;
      if (value !== '') return space + value;
      return CLOSES_A_PHRASE.test(text.slice(offset + match.length)) ? '' : space;
    },
  );
}

function contactField(contact: RenderScope['contact'], field: string): string {
  if (field === 'first_name') return contact.name?.trim().split(/\s+/)[0] ?? '';
  return contact[field as 'name' | 'phone' | 'email'] ?? '';
}

function stringOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
