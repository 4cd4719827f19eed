import { useEffect, useState } from 'preact/hooks';
import { dashboard } from '../api/client';
import { ErrorNote, useAsync, useSubmit } from '../ui';
import { t } from '../i18n/i18n';

type Kind = 'mention' | 'assignment' | 'new_conversation';
type Preferences = Record<Kind, { in_app: boolean; email: boolean }>;

/** What a person can be told about, in the order the table lists it (named by settings:notifications.kinds.*). */
const KINDS: readonly Kind[] = ['mention', 'assignment', 'new_conversation'];

/** Settings → Your account: which notifications the person gets in the dashboard and by email. */
export function NotificationSettings() {
  const saved = useAsync(() => dashboard.get('/api/dashboard/notification-preferences'), []);
  const [choices, setChoices] = useState<Preferences | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => setChoices(saved.data?.preferences ?? null), [saved.data]);
  const save = useSubmit(async () => {
    setDone(false);
    if (choices) await dashboard.put('/api/dashboard/notification-preferences', { body: choices });
    setDone(true);
  });
  const emailOn = saved.data?.email_enabled ?? false;
  const choose = (kind: Kind, channel: 'in_app' | 'email', on: boolean) =>
    choices && setChoices({ ...choices, [kind]: { ...choices[kind], [channel]: on } });

  return (
    <form onSubmit={save.onSubmit} aria-labelledby="notifications-title" class="settings-form">
      <h2 id="notifications-title">{t('settings:notifications.title')}</h2>
      {!emailOn && <p class="muted">{t('settings:notifications.noEmail')}</p>}
      <ErrorNote error={saved.error} />
      {choices && (
        <table>
          <caption class="visually-hidden">{t('settings:notifications.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings:notifications.when')}</th>
              <th scope="col">{t('settings:notifications.inParley')}</th>
              <th scope="col">{t('settings:notifications.byEmail')}</th>
            </tr>
          </thead>
          <tbody>
            {KINDS.map((kind) => (
              <tr key={kind}>
                <th scope="row">{t(`settings:notifications.kinds.${kind}`)}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('settings:notifications.inParleyFor', {
                      what: t(`settings:notifications.kinds.${kind}`),
                    })}
                    checked={choices[kind].in_app}
                    onChange={(e) => choose(kind, 'in_app', e.currentTarget.checked)}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('settings:notifications.byEmailFor', {
                      what: t(`settings:notifications.kinds.${kind}`),
                    })}
                    checked={choices[kind].email}
                    disabled={!emailOn}
                    onChange={(e) => choose(kind, 'email', e.currentTarget.checked)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="hint">{t('settings:notifications.desktopHint')}</p>
      <ErrorNote error={save.error} />
      <button class="primary" type="submit" disabled={save.busy || !choices}>
        {t('settings:notifications.save')}
      </button>
      <p role="status" class="status-line">
        {done ? t('settings:notifications.saved') : ''}
      </p>
    </form>
  );
}
