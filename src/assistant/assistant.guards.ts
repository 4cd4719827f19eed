import { normalizeKeyword } from '../opt-out/index.js';

/**
 * Words that ask for a person in the languages customers write to Parley's workspaces most: a message
 * holding one goes to a person without the model being asked. The workspace adds its own.
 */
export const BUILT_IN_STOP_WORDS = ['agent', 'human', 'agente', 'humano', 'atendente'] as const;

/**
 * The stop word a customer's text holds, as a whole word or phrase (case, accents and punctuation
 * aside: "¡Quiero un HUMANO!" holds "humano"); null when none.
 */
export function stopWordIn(text: string, extra: readonly string[]): string | null {
  const said = ` ${normalizeKeyword(text)} `;
  if (said.trim() === '') return null;
  for (const word of [...BUILT_IN_STOP_WORDS, ...extra]) {
    const form = normalizeKeyword(word);
    if (form !== '' && said.includes(` ${form} `)) return word;
  }
  return null;
}
