import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { dashboard, type DashboardAnswer } from '../api/client';
import { can, useSession } from '../session';
import { askAnAdmin } from '../roles';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { timeZoneNames } from '../time-zones';
import { t } from '../i18n/i18n';
import { formatNumber } from '../i18n/format';

type Workspace = DashboardAnswer<'/api/dashboard/workspace'>;

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 1536 → "1.5 kB" (in the person's language): the storage a workspace uses, for people. */
function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Whole bytes are spelled out ("0 bytes"); larger units are abbreviated, with one decimal.
  return unit === 0
    ? formatNumber(value, { style: 'unit', unit: 'byte', unitDisplay: 'long' })
    : formatNumber(value, {
        style: 'unit',
        unit: BYTE_UNITS[unit],
        maximumFractionDigits: 1,
        minimumFractionDigits: 1,
      });
}

/**
 * Settings → Workspace: name, time zone, the polling interval and media retention (owners change them,
 * members read them), and the storage the workspace's media files use.
 */
export function WorkspaceSettings() {
  const workspace = useAsync(() => dashboard.get('/api/dashboard/workspace'), []);
  return (
    <Page title={t('settings:workspace.title')}>
      <SettingsNav />
      <ErrorNote error={workspace.error} />
      {workspace.data && <WorkspaceForm workspace={workspace.data} />}
      {workspace.data && <TypingIndicatorSetting />}
    </Page>
  );
}

function WorkspaceForm({ workspace }: { workspace: Workspace }) {
  const { user, refresh } = useSession();
  const owner = can(user, 'manage_workspace');
  const [name, setName] = useState(workspace.name);
  const [timeZone, setTimeZone] = useState(workspace.time_zone);
  const [pollSeconds, setPollSeconds] = useState(String(workspace.poll_interval_seconds));
  const [retentionDays, setRetentionDays] = useState(String(workspace.media_retention_days ?? ''));
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [name, timeZone, pollSeconds, retentionDays]);
  const zones = useMemo(() => timeZoneNames(workspace.time_zone), [workspace.time_zone]);
  const save = useSubmit(async () => {
    const body = {
      name,
      time_zone: timeZone,
      poll_interval_seconds: Number(pollSeconds),
      media_retention_days: retentionDays.trim() === '' ? null : Number(retentionDays),
    };
    await dashboard.put('/api/dashboard/workspace', { body });
    await refresh(); // the top bar shows the name, and every time follows the zone (format.ts)
    setSaved(true);
  });
  const timeZoneError = save.error instanceof ApiError ? save.error.fieldMessage('time_zone') : undefined;

  return (
    <form onSubmit={save.onSubmit} aria-label={t('settings:workspace.formLabel')} class="settings-form">
      {!owner && (
        <p class="warning" data-testid="read-only-note">
          {askAnAdmin(user, t('settings:workspace.changeThese'))} {t('settings:workspace.readOnly')}
        </p>
      )}
      <fieldset class="plain" disabled={!owner}>
        <legend class="visually-hidden">{t('settings:workspace.title')}</legend>
        <TextField
          label={t('settings:workspace.name')}
          required
          maxLength={200}
          value={name}
          {...save.bind('name', setName)}
        />
        <div class="field">
          <label for="workspace-time-zone">{t('settings:workspace.timeZone')}</label>
          <select
            id="workspace-time-zone"
            value={timeZone}
            onChange={(e) => {
              setTimeZone(e.currentTarget.value);
              save.edited('time_zone');
            }}
            aria-describedby="workspace-time-zone-note"
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
          <small id="workspace-time-zone-note" class={timeZoneError ? 'error' : 'hint'}>
            {timeZoneError ?? t('settings:workspace.timeZoneHint')}
          </small>
        </div>
        <TextField
          label={t('settings:workspace.pollInterval')}
          type="number"
          min={0}
          max={86400}
          required
          value={pollSeconds}
          {...save.bind('poll_interval_seconds', setPollSeconds)}
          hint={t('settings:workspace.pollHint')}
        />
        <TextField
          label={t('settings:workspace.retention')}
          type="number"
          min={1}
          max={36500}
          value={retentionDays}
          {...save.bind('media_retention_days', setRetentionDays)}
          hint={t('settings:workspace.retentionHint')}
        />
        <p data-testid="media-storage">
          {t('settings:workspace.mediaStorage', {
            store: t(
              workspace.media_storage.store === 's3'
                ? 'settings:workspace.objectStore'
                : 'settings:workspace.serverDisk',
            ),
            size: formatBytes(workspace.media_storage.bytes),
            count: workspace.media_storage.files,
          })}
        </p>
        {owner && (
          <button class="primary" type="submit" disabled={save.busy}>
            {t('settings:workspace.save')}
          </button>
        )}
      </fieldset>
      {!(save.error instanceof ApiError && save.error.problem.errors?.length) && <ErrorNote error={save.error} />}
      <p role="status" class="status-line">
        {saved ? t('settings:workspace.saved') : ''}
      </p>
    </form>
  );
}

/**
 * The inbox's workspace-wide setting: whether opening a conversation also shows the customer a typing
 * indicator with the read receipt (WhatsApp shows it until the reply, or for 25 seconds). It is here,
 * not in the inbox, because it changes what every agent's opening does; those who may change workspace
 * settings change it, the others read it.
 */
function TypingIndicatorSetting() {
  const { user } = useSession();
  const editable = can(user, 'manage_workspace');
  const settings = useAsync(() => dashboard.get('/api/dashboard/inbox/settings'), []);
  // The box shows the choice at once; a refused save puts it back and says why.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [outcome, setOutcome] = useState<{ saved: true } | { error: unknown } | null>(null);
  if (!settings.data) return <ErrorNote error={settings.error} />;
  const toggle = async (on: boolean) => {
    setChosen(on);
    setOutcome(null);
    try {
      await dashboard.put('/api/dashboard/inbox/settings', { body: { typing_indicator: on } });
      setOutcome({ saved: true });
    } catch (error) {
      setChosen(null);
      setOutcome({ error });
    }
  };
  return (
    <section class="settings-form" aria-labelledby="inbox-settings-title">
      <h2 id="inbox-settings-title">{t('settings:workspace.inboxTitle')}</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={chosen ?? settings.data.typing_indicator}
          disabled={!editable}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />{' '}
        {t('settings:workspace.typingIndicator')}
      </label>
      {outcome && 'error' in outcome && <ErrorNote error={outcome.error} />}
      <p role="status" class="status-line">
        {outcome && 'saved' in outcome ? t('settings:workspace.typingSaved') : ''}
      </p>
    </section>
  );
}
