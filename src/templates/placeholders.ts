const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The distinct `{{n}}` numbers of a template body, ascending (the order variables are passed in). */
export function extractPlaceholders(body: string): string[] {
  const numbers = new Set<string>();
  // Kept as digit strings (not Number) so a long number is never rounded; `01` is `1`.
  for (const match of body.matchAll(PLACEHOLDER)) numbers.add(match[1]!.replace(/^0+(?=\d)/, ''));
  return [...numbers].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}
