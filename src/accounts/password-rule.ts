import { errors } from '../shared/errors.js';

const MIN_LENGTH = 12;

/** Refuses a new password too short to resist guessing; `field` names the input it came from. */
export function checkNewPassword(field: string, password: string): void {
  if (password.length < MIN_LENGTH) throw errors.validation(field, `must be at least ${MIN_LENGTH} characters`);
}
