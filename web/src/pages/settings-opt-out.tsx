import { useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../api/client';
import { ErrorNote, Page, TextAreaField, fieldErrors, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';

/** What get-opt-out-settings answers. */
type OptOutSettings = ActionAnswer<'get-opt-out-settings'>;

/** Settings → Opt-out: the words that unsubscribe a contact from marketing and back, and the confirmation. */
export function OptOutSettingsPage() {
  const settings = useAsync(() => action('get-opt-out-settings', {}), []);
  return (
    <Page title={t('settings:optOut.title')}>
      <SettingsNav />
      <ErrorNote error={settings.error} />
      {settings.data && <OptOutForm settings={settings.data} />}
    </Page>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function OptOutForm({ settings }: { settings: OptOutSettings }) {
  const [stop, setStop] = useState(settings.stop_keywords.join('\n'));
  const [start, setStart] = useState(settings.start_keywords.join('\n'));
  const [confirm, setConfirm] = useState(settings.confirm);
  // What was last saved: the note shows while the form still holds it.
  const [savedForm, setSavedForm] = useState<string | null>(null);
  const saved = savedForm === JSON.stringify([stop, start, confirm]);
  const save = useSubmit(async () => {
    const next = await action('update-opt-out-settings', {
      stop_keywords: lines(stop),
      start_keywords: lines(start),
      confirm,
    });
    const shown = [next.stop_keywords.join('\n'), next.start_keywords.join('\n')] as const;
    setStop(shown[0]);
    setStart(shown[1]);
    setSavedForm(JSON.stringify([...shown, next.confirm]));
  });
  const labels = {
    stop_keywords: t('settings:optOut.stopKeywords'),
    start_keywords: t('settings:optOut.resumeKeywords'),
  };
  const errors = fieldErrors(save.error, labels);
  return (
    <form onSubmit={save.onSubmit} aria-label={t('settings:optOut.formLabel')} class="settings-form">
      <p class="muted">{t('settings:optOut.intro')}</p>
      <TextAreaField
        rows={6}
        label={labels.stop_keywords}
        value={stop}
        onValue={setStop}
        hint={t('settings:optOut.stopHint')}
        error={errors.field('stop_keywords')}
      />
      <TextAreaField
        rows={6}
        label={labels.start_keywords}
        value={start}
        onValue={setStart}
        hint={t('settings:optOut.resumeHint')}
        error={errors.field('start_keywords')}
      />
      <label class="check">
        <input type="checkbox" checked={confirm} onChange={(e) => setConfirm(e.currentTarget.checked)} />
        {t('settings:optOut.confirm')}
      </label>
      <button class="primary" type="submit" disabled={save.busy}>
        {t('settings:optOut.save')}
      </button>
      <ErrorNote error={errors.note} />
      <p role="status" class="status-line">
        {saved ? t('settings:optOut.saved') : ''}
      </p>
    </form>
  );
}
