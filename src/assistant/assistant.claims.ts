import { normalizeKeyword } from '../opt-out/index.js';

/**
 * Words that name a day or a month, or promise one, in the languages the stop words cover and French
 * and German: a reply that uses one must find it in the knowledge it cites. "Today" is left out: it is
 * how a greeting asks how to help, not a promise.
 */
const DATE_WORDS = [
  // Not "may": it is far more often the verb ("you may return it") than the month.
  ...['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october'],
  ...['november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  'tomorrow',
  ...['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre'],
  ...['noviembre', 'diciembre', 'lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo'],
  ...['janeiro', 'fevereiro', 'marco', 'maio', 'junho', 'julho', 'setembro', 'outubro', 'novembro', 'dezembro'],
  ...['segunda', 'terca', 'quarta', 'quinta', 'sexta', 'amanha'],
  ...['janvier', 'fevrier', 'mars', 'avril', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'novembre'],
  ...['decembre', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche', 'demain'],
  ...['januar', 'februar', 'marz', 'juni', 'juli', 'oktober', 'dezember', 'montag', 'dienstag', 'mittwoch'],
  ...['donnerstag', 'freitag', 'samstag', 'sonntag', 'morgen'],
];
const DATE_WORD_SET = new Set(DATE_WORDS.map((word) => normalizeKeyword(word).toLowerCase()));

/** A run of digits with its separators: 25, 25.00, 1,299.99, 14:30, 2026-05-01, 30%. */
const FIGURE = /\d+(?:[.,:/-]\d+)*/g;

/**
 * The forms a figure may be written in: its digits alone (1,299.00 and 1.299,00 alike), and without
 * a zero decimal part (25.00 is 25).
 */
function formsOf(figure: string): string[] {
  const digits = figure.replace(/\D/g, '');
  const whole = /^(.*\d)[.,]0+$/.exec(figure)?.[1];
  return whole ? [digits, whole.replace(/\D/g, '')] : [digits];
}

function figureForms(text: string): Set<string> {
  return new Set([...text.matchAll(FIGURE)].flatMap(([figure]) => formsOf(figure)));
}

const wordsOf = (text: string) => normalizeKeyword(text).toLowerCase().split(' ');

/**
 * What a reply states that none of the cited texts does: each figure (a price, an amount, a
 * percentage, a date, a time — anything written with digits) and each day, month or "tomorrow". An
 * empty list: every such claim is backed by the knowledge it cites. Numbers spelled in words are not
 * caught; the model is told not to state any figure its knowledge does not give.
 */
export function unsupportedClaims(reply: string, cited: readonly string[]): string[] {
  const sources = cited.join('\n');
  const known = figureForms(sources);
  const knownWords = new Set(wordsOf(sources));
  const figures = [...reply.matchAll(FIGURE)]
    .map(([figure]) => figure)
    .filter((figure) => !formsOf(figure).some((form) => known.has(form)));
  const dates = wordsOf(reply).filter((word) => DATE_WORD_SET.has(word) && !knownWords.has(word));
  return [...new Set([...figures, ...dates])];
}
