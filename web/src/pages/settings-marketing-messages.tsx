import { useState } from 'preact/hooks';
import { action, dashboard, type ActionAnswer } from '../api/client';
import { ErrorNote, useAsync, useSubmit } from '../ui';
import { t } from '../i18n/i18n';
import { formatDateTime } from '../i18n/format';

type Settings = ActionAnswer<'get-marketing-messages-settings'>;

/**
 * Settings → Channel's Marketing Messages API switch, for people who may manage channels (the API
 * refuses anyone else): turning it on asks them to confirm Meta's terms were accepted, and shows who did.
 */
export function MarketingMessagesSettings() {
  const settings = useAsync(() => action('get-marketing-messages-settings', {}), []);
  return (
    <section aria-labelledby="marketing-messages-title">
      <h2 id="marketing-messages-title">{t('channel:marketingMessages.title')}</h2>
      <p class="hint">{t('channel:marketingMessages.hint')}</p>
      <ErrorNote error={settings.error} />
      {settings.data && (
        <MarketingMessagesForm key={JSON.stringify(settings.data)} settings={settings.data} onSaved={settings.reload} />
      )}
    </section>
  );
}

function MarketingMessagesForm({ settings, onSaved }: { settings: Settings; onSaved: () => void }) {
  const [enabled, setEnabled] = useState(settings.enabled);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const save = useSubmit(async () => {
    await action('update-marketing-messages-settings', {
      enabled,
      ...(enabled && { meta_terms_accepted: termsAccepted }),
    });
    onSaved();
  });
  const termsLabel = t('channel:marketingMessages.termsAccepted');
  const turningOn = enabled && !settings.enabled;
  return (
    <form onSubmit={save.onSubmit} aria-label={t('channel:marketingMessages.title')}>
      <p role="status" data-testid="marketing-messages-state">
        <StateLine settings={settings} />
      </p>
      <label class="check">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(e) => {
            setEnabled(e.currentTarget.checked);
            save.edited('meta_terms_accepted');
          }}
        />{' '}
        {t('channel:marketingMessages.switch')}
      </label>
      {turningOn && (
        <label class="check">
          <input
            type="checkbox"
            checked={termsAccepted}
            onChange={(e) => {
              setTermsAccepted(e.currentTarget.checked);
              save.edited('meta_terms_accepted');
            }}
          />{' '}
          {termsLabel}
          <small class="hint"> {t('channel:marketingMessages.termsHint')}</small>
        </label>
      )}
      <ErrorNote error={save.error} labels={{ meta_terms_accepted: termsLabel }} />
      <button type="submit" disabled={save.busy || enabled === settings.enabled}>
        {t('channel:marketingMessages.save')}
      </button>
    </form>
  );
}

/** On or off; when on, who confirmed Meta's terms and when (a person since removed: their id is gone, so no name). */
function StateLine({ settings }: { settings: Settings }) {
  const team = useAsync(() => dashboard.get('/api/dashboard/team'), []);
  if (!settings.enabled) return <>{t('channel:marketingMessages.off')}</>;
  const who = team.data?.find((person) => person.id === settings.terms_accepted_by)?.name;
  const when = settings.terms_accepted_at ? formatDateTime(settings.terms_accepted_at) : '';
  return (
    <>
      {who
        ? t('channel:marketingMessages.onConfirmedBy', { who, when })
        : t('channel:marketingMessages.onConfirmed', { when })}
    </>
  );
}
