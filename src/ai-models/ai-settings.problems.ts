import { fieldProblems } from '../shared/field-problems.js';

/** A workspace's AI model settings: what a field can break (wordings, see field-problems.ts). */
export const aiSettingsProblems = fieldProblems('ai_settings', {
  absolute_url: 'must be an absolute http or https URL, such as https://api.openai.com/v1',
  credentials_in_url: 'must not contain credentials: give the key as the API key',
  https_required: 'must be https: the API key would cross the network in clear',
  private_target:
    'must not point to a loopback or private address (the operator allows them with PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS)',
  required_to_enable: 'is required to turn the AI model on',
});
