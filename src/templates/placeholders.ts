/**
 * Meta's two ways to name a template's variables: `{{1}}`, `{{2}}` (POSITIONAL, the default) or
 * `{{first_name}}` (`parameter_format: NAMED`: lower-case letters, digits and underscores).
 */
export type ParameterFormat = 'POSITIONAL' | 'NAMED';
export const PARAMETER_FORMATS = ['POSITIONAL', 'NAMED'] as const;

const NUMBERED = /\{\{\s*(\d+)\s*\}\}/g;
const NAMED = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;

/**
 * The distinct placeholders of a template text in the order variables are passed in: ascending
 * numbers for a POSITIONAL template, names in order of first appearance for a NAMED one.
 */
export function extractPlaceholders(text: string, format: ParameterFormat = 'POSITIONAL'): string[] {
  if (format === 'NAMED') return [...new Set([...text.matchAll(NAMED)].map((match) => match[1]!))];
  const numbers = new Set<string>();
  // Kept as digit strings (not Number) so a long number is never rounded; `01` is `1`.
  for (const match of text.matchAll(NUMBERED)) numbers.add(match[1]!.replace(/^0+(?=\d)/, ''));
  return [...numbers].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** The text with each placeholder replaced by its value (`values` keyed by placeholder). */
export function fillPlaceholders(text: string, format: ParameterFormat, values: Map<string, string>): string {
  const pattern = format === 'NAMED' ? NAMED : NUMBERED;
  return text.replace(pattern, (whole, key: string) => {
    const value = values.get(format === 'NAMED' ? key : key.replace(/^0+(?=\d)/, ''));
    return value ?? whole;
  });
}
