import { fieldProblems } from '../shared/field-problems.js';

/** Outgoing webhooks: what a subscription's URL can break (wordings, see field-problems.ts). */
export const webhookProblems = fieldProblems('webhooks_out', {
  absolute_https_url: 'must be an absolute https URL',
  credentials_in_url: 'must not contain credentials',
  https_required: 'must be an https URL',
  private_target: 'must not point to a loopback or private address',
  resolves_to_private: 'must not point to a loopback or private address ({{host}} resolves to {{address}})',
});
