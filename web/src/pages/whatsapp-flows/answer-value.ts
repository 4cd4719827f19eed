import { t } from '../../i18n/i18n';

/**
 * A WhatsApp Flow answer's value as people read it: text as it is, a checkbox group's choices joined, an
 * opt-in as yes or no, anything else as JSON. The thread, the contact page and the answers table agree.
 */
export function answerValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? t('inbox:form.yes') : t('inbox:form.no');
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
