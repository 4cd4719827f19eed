/**
 * src/templates/'s front door: message templates, their submission to the channel and their sync. Other
 * folders import it only through here.
 */
export { fillPlaceholders } from './placeholders.js';
export { registerTemplateDashboardRoutes } from './template-dashboard.routes.js';
export { createTemplateSubmissionService } from './template-submission.js';
export { createTemplateSyncService, type TemplateSyncService } from './template-sync.js';
export {
  COUPON_CODE,
  missingCapabilities,
  OFFER_EXPIRATION,
  translationParts,
  type TranslationParts,
  type VariableSlot,
  variableSlots,
} from './template-variables.js';
export { displayedTranslation, translationOptions } from './template.presenter.js';
export { templateRepository, type TemplateRow, type TranslationRow } from './template.repository.js';
export { registerTemplateRoutes } from './template.routes.js';
export {
  CreateTemplateBody,
  TEMPLATE_LIST_CAP,
  type TemplateInput,
  TemplateInputSchema,
  type TranslationInput,
  TranslationInputSchema,
} from './template.schema.js';
export { createTemplateService, headerProblem, type TemplateService } from './template.service.js';
