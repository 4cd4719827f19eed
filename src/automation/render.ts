/** What placeholders in a step's text or template variables can name. */
export interface RenderScope {
  contact: { name: string | null; phone: string; email: string | null; custom_attributes: string };
  context: Record<string, unknown>;
}

const PLACEHOLDER = /\{\{\s*(contact\.name|contact\.phone|contact\.email|(?:attributes|context)(?:\.[\w-]+)+)\s*\}\}/g;

/**
 * Fills `{{contact.name}}`, `{{contact.phone}}`, `{{contact.email}}`, `{{attributes.KEY}}` (custom
 * attributes) and `{{context.KEY}}` (the run's context), with dotted paths into objects
 * (`{{context.webhook.status}}`); anything else is literal text. A missing value renders as empty.
 */
export function render(text: string, scope: RenderScope): string {
  let attributes: Record<string, unknown> | undefined;
  return text.replace(PLACEHOLDER, (_, path: string) => {
    const [root, ...keys] = path.split('.') as [string, ...string[]];
    if (root === 'contact') return scope.contact[keys[0] as 'name' | 'phone' | 'email'] ?? '';
    if (root === 'attributes') attributes ??= JSON.parse(scope.contact.custom_attributes) as Record<string, unknown>;
    const value = keys.reduce<unknown>(
      (object, key) => (object && typeof object === 'object' ? (object as Record<string, unknown>)[key] : undefined),
      root === 'attributes' ? attributes : scope.context,
    );
    return stringOf(value);
  });
}

function stringOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
