import { t } from '../i18n/i18n';

/** Meta's pricing category (the API's lower-case value) in words, for a sentence; an unknown one as it is. */
export function pricingCategoryName(category: string): string {
  const names: Record<string, string> = {
    marketing: t('common:pricingCategory.marketing'),
    marketing_lite: t('common:pricingCategory.marketing_lite'),
    utility: t('common:pricingCategory.utility'),
    authentication: t('common:pricingCategory.authentication'),
    authentication_international: t('common:pricingCategory.authentication_international'),
    service: t('common:pricingCategory.service'),
  };
  return names[category] ?? category;
}
