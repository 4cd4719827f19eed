import { errors, type FieldError } from '../shared/errors.js';
import { workspaceProblems } from './workspace.problems.js';

/** The one password rule: every way a password is chosen (set-up, invitation, CLI, change, reset) checks it. */
const MIN_PASSWORD_LENGTH = 12;

/**
 * What the most common passwords are built on (from the published breach top lists): a password that
 * is one of these, or whose core is (the digits and symbols around it and leetspeak taken away:
 * "Password1234!", "p@ssw0rd2024", "Summer2025!!"), is among the first an attacker tries.
 */
const COMMON_CORES = new Set(
  `password passwd pass qwerty qwertz azerty qwertyuiop asdf asdfgh asdfghjkl zxcvbnm qazwsx
  iloveyou welcome letmein admin administrator changeme secret login master monkey dragon football baseball
  soccer hockey superman batman princess sunshine starwars shadow trustno freedom whatever computer internet
  hello helloworld michael charlie jessica jordan hunter ashley summer winter spring autumn love lovely flower
  abc abcd abcdef abcdefgh default guest user test parley whatsapp
  1q2w3e4r5t6y 1qaz2wsx3edc q1w2e3r4t5y6 zaq12wsx 1qazxsw2`.split(/\s+/),
);

/** Keyboard rows and counting runs, forwards and backwards: a password inside one is no secret. */
const RUNS = ['0123456789'.repeat(3), 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm'].flatMap((run) => [
  run,
  [...run].reverse().join(''),
]);

const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
};

/** The password without the digits and symbols around it, leetspeak undone. */
function coreOf(lower: string): string {
  const trimmed = lower.replace(/^[^a-z]+|[^a-z]+$/g, '');
  return trimmed.replace(/[@431!0$57]/g, (c) => LEET[c]!);
}

/** Why a password (the value of `field`) is refused, or null when it passes the rule. */
export function passwordProblem(password: string, field = 'password'): FieldError | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return workspaceProblems.problem(field, 'password_too_short', { min: MIN_PASSWORD_LENGTH });
  }
  const lower = password.toLowerCase();
  const guessable =
    COMMON_CORES.has(lower) ||
    COMMON_CORES.has(coreOf(lower)) ||
    new Set(lower).size < 5 ||
    /^(.+)\1+$/s.test(lower) ||
    RUNS.some((run) => run.includes(lower));
  return guessable ? workspaceProblems.problem(field, 'password_too_common') : null;
}

/** Refuses a password that breaks the rule with a validation error on `field`. */
export function requirePasswordRule(password: string, field = 'password'): void {
  const problem = passwordProblem(password, field);
  if (problem) throw errors.invalid(problem);
}
