const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The distinct `{{n}}` numbers of a template body, ascending (the order variables are passed in). */
export function extractPlaceholders(body: string): string[] {
  const numbers = new Set<number>();
  for (const match of body.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
  return [...numbers].sort((a, b) => a - b).map(String);
}
