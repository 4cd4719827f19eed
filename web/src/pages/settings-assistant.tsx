import { useId, useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../api/client';
import { can, useSession } from '../session';
import { CheckField, ErrorNote, Page, TextAreaField, TextField, fieldErrors, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';
import { formatNumber } from '../i18n/format';

type Settings = ActionAnswer<'get-assistant-settings'>;
type Choice = { id: string; name: string };

const HOURS = ['always', 'outside_hours', 'inside_hours'] as const satisfies readonly Settings['hours'][];

/** The form's fields by their API names, with the labels their problems are shown under. */
const labels = (): Record<string, string> => ({
  enabled: t('assistant:enabled'),
  name: t('assistant:name'),
  instructions: t('assistant:instructions'),
  channel_ids: t('assistant:numbers'),
  team_ids: t('assistant:teams'),
  hours: t('assistant:hours'),
  reply_limit: t('assistant:replyLimit'),
  confidence_floor: t('assistant:confidenceFloor'),
  stop_words: t('assistant:stopWords'),
  handover_message: t('assistant:handoverMessage'),
});

/**
 * Settings → AI assistant: whether the assistant answers customers, where (numbers, teams, business
 * hours), how it speaks and its guardrails. Every role reads it; changing it needs `automation`.
 */
export function AssistantSettingsPage() {
  const settings = useAsync(() => action('get-assistant-settings', {}), []);
  const channels = useAsync(() => action('list-channels', {}), []);
  const teams = useAsync(() => action('list-teams', {}), []);
  const numbers = channels.data?.channels.flatMap((c) =>
    c.id ? [{ id: c.id, name: c.display_phone_number ?? c.phone_number_id ?? c.id }] : [],
  );
  return (
    <Page title={t('assistant:title')}>
      <SettingsNav />
      <p class="hint">{t('assistant:intro')}</p>
      <ErrorNote error={settings.error ?? channels.error ?? teams.error} />
      {settings.data && numbers && teams.data && (
        <AssistantForm settings={settings.data} numbers={numbers} teams={teams.data} />
      )}
    </Page>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function AssistantForm(props: { settings: Settings; numbers: Choice[]; teams: Choice[] }) {
  const { user } = useSession();
  const allowed = can(user, 'automation');
  const [form, setForm] = useState(props.settings);
  const [stopWords, setStopWords] = useState(props.settings.stop_words.join('\n'));
  const [saved, setSaved] = useState(false);
  const save = useSubmit(async () => {
    const next = await action('update-assistant-settings', { ...form, stop_words: lines(stopWords) });
    setForm(next);
    setStopWords(next.stop_words.join('\n'));
    setSaved(true);
  });
  const errors = fieldErrors(save.error, labels());
  const set = <K extends keyof Settings>(field: K, value: Settings[K]) => {
    setForm({ ...form, [field]: value });
    save.edited(field);
    setSaved(false);
  };

  return (
    <form onSubmit={save.onSubmit} aria-label={t('assistant:formLabel')} class="settings-form">
      {!allowed && <p class="warning">{t('assistant:readOnly')}</p>}
      <fieldset class="plain" disabled={!allowed}>
        <CheckField
          label={t('assistant:enabled')}
          hint={t('assistant:enabledHint')}
          checked={form.enabled}
          onChecked={(on) => set('enabled', on)}
        />
        <TextField
          label={t('assistant:name')}
          maxLength={60}
          value={form.name}
          hint={t('assistant:nameHint')}
          onValue={(value) => set('name', value)}
          error={errors.field('name')}
        />
        <TextAreaField
          rows={3}
          label={t('assistant:instructions')}
          value={form.instructions}
          maxLength={4000}
          hint={t('assistant:instructionsHint')}
          error={errors.field('instructions')}
          onValue={(value) => set('instructions', value)}
        />
        <Choices
          legend={t('assistant:numbers')}
          hint={t('assistant:numbersHint')}
          empty={t('assistant:noNumbers')}
          choices={props.numbers}
          chosen={form.channel_ids}
          onChosen={(ids) => set('channel_ids', ids)}
          error={errors.field('channel_ids')}
        />
        <Choices
          legend={t('assistant:teams')}
          hint={t('assistant:teamsHint')}
          empty={t('assistant:noTeams')}
          choices={props.teams}
          chosen={form.team_ids}
          onChosen={(ids) => set('team_ids', ids)}
          error={errors.field('team_ids')}
        />
        <HoursField value={form.hours} onValue={(hours) => set('hours', hours)} />
        <TextField
          label={t('assistant:replyLimit')}
          type="number"
          min={1}
          max={100}
          required
          value={String(form.reply_limit)}
          hint={t('assistant:replyLimitHint')}
          onValue={(value) => set('reply_limit', Number(value))}
          error={errors.field('reply_limit')}
        />
        <TextField
          label={t('assistant:confidenceFloor')}
          type="number"
          min={0}
          max={1}
          step={0.05}
          required
          value={String(form.confidence_floor)}
          hint={t('assistant:confidenceFloorHint', { example: formatNumber(0.6) })}
          onValue={(value) => set('confidence_floor', Number(value))}
          error={errors.field('confidence_floor')}
        />
        <TextAreaField
          rows={3}
          label={t('assistant:stopWords')}
          value={stopWords}
          hint={t('assistant:stopWordsHint')}
          error={errors.field('stop_words')}
          onValue={(value) => {
            setStopWords(value);
            save.edited('stop_words');
            setSaved(false);
          }}
        />
        <TextAreaField
          rows={3}
          label={t('assistant:handoverMessage')}
          value={form.handover_message}
          maxLength={4096}
          hint={t('assistant:handoverMessageHint')}
          error={errors.field('handover_message')}
          onValue={(value) => set('handover_message', value)}
        />
        <button class="primary" type="submit" disabled={save.busy}>
          {t('assistant:save')}
        </button>
      </fieldset>
      <ErrorNote error={errors.note} />
      <p role="status" class="status-line">
        {saved ? t('assistant:saved') : ''}
      </p>
    </form>
  );
}

/** Checkboxes for numbers or teams: none ticked means all of them. */
function Choices(props: {
  legend: string;
  hint: string;
  /** What shows when there is nothing to tick. */
  empty: string;
  choices: Choice[];
  chosen: string[];
  onChosen: (ids: string[]) => void;
  error: string | undefined;
}) {
  const id = useId();
  const toggle = (choice: string, on: boolean) =>
    props.onChosen(on ? [...props.chosen, choice] : props.chosen.filter((c) => c !== choice));
  return (
    <fieldset class="plain" aria-describedby={`${id}-note`}>
      <legend>{props.legend}</legend>
      {props.choices.length === 0 && <p class="muted">{props.empty}</p>}
      {props.choices.map((choice) => (
        <label key={choice.id} class="check">
          <input
            type="checkbox"
            checked={props.chosen.includes(choice.id)}
            onChange={(e) => toggle(choice.id, e.currentTarget.checked)}
          />
          <span dir="auto">{choice.name}</span>
        </label>
      ))}
      <small id={`${id}-note`} class={props.error ? 'error' : 'hint'}>
        {props.error ?? props.hint}
      </small>
    </fieldset>
  );
}

/** When by the business hours: always, only outside them, only inside them. */
function HoursField(props: { value: Settings['hours']; onValue: (hours: Settings['hours']) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{t('assistant:hours')}</label>
      <select
        id={id}
        value={props.value}
        onChange={(e) => props.onValue(e.currentTarget.value as Settings['hours'])}
        aria-describedby={`${id}-note`}
      >
        {HOURS.map((hours) => (
          <option key={hours} value={hours}>
            {t(`assistant:hoursChoice.${hours}`)}
          </option>
        ))}
      </select>
      <small id={`${id}-note`} class="hint">
        {t('assistant:hoursHint')}
      </small>
    </div>
  );
}
