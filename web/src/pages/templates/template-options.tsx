import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { otpTypeLabel, type TranslationDetail } from './template-parts';

/** Minutes in the reader's language, plural included (Intl's units). */
const IN_MINUTES: Intl.NumberFormatOptions = { style: 'unit', unit: 'minute', unitDisplay: 'long' };

/**
 * What Meta builds a translation from besides its text (as template-view's facts): the Template Library
 * template it came from; an authentication template's code button, its Android apps, expiry and security sentence.
 */
export function TemplateOptions({ translation }: { translation: TranslationDetail }) {
  const otp = translation.buttons.find((b) => b.type === 'OTP');
  const minutes = translation.code_expiration_minutes;
  const none = <span class="muted">{t('templates:none')}</span>;
  return (
    <>
      {translation.library_template_name && (
        <>
          <dt>{t('templates:view.library')}</dt>
          <dd data-testid="library-template">
            {t('templates:view.fromLibrary')} <code>{translation.library_template_name}</code>
          </dd>
        </>
      )}
      {otp && (
        <>
          <dt>{t('templates:view.codeButton')}</dt>
          <dd data-testid="otp-button">
            {otpTypeLabel(otp.otp_type ?? 'COPY_CODE')}
            {otp.supported_apps && (
              <ul class="plain-list">
                {otp.supported_apps.map((app) => (
                  <li key={app.package_name}>
                    {t('templates:view.app')} <code>{app.package_name}</code> · {t('templates:view.signatureHash')}{' '}
                    <code>{app.signature_hash}</code>
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>{t('templates:view.codeExpiry')}</dt>
          <dd data-testid="code-expiry">{minutes === null ? none : formatNumber(minutes, IN_MINUTES)}</dd>
          <dt>{t('templates:view.securityRecommendation')}</dt>
          <dd data-testid="security-recommendation">
            {translation.add_security_recommendation
              ? t('templates:view.securityAdded')
              : t('templates:view.securityNotAdded')}
          </dd>
        </>
      )}
    </>
  );
}
