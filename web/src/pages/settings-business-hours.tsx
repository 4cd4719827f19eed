import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../api/client';
import { can, useSession } from '../session';
import { timeZoneNames } from '../time-zones';
import { ErrorNote, Page, fieldErrors, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';
import { formatClock, formatDay, formatNumber, formatWeekday } from '../i18n/format';
import { Rich } from '../i18n/rich';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type Weekday = (typeof WEEKDAYS)[number];
/** The weekday's name in the person's language (formatWeekday counts from Sunday, 0). */
const dayName = (day: Weekday) => formatWeekday((WEEKDAYS.indexOf(day) + 1) % 7, 'long');

type BusinessHours = ActionAnswer<'get-business-hours'>;
type Interval = BusinessHours['weekly'][Weekday][number];

/** The form's fields by their API names, with the labels their errors are shown under. */
const hoursLabels = (): Record<string, string> => ({
  time_zone: t('routing:hours.timeZone'),
  holidays: t('routing:hours.holidays'),
  away_message: t('routing:hours.awayMessage'),
  ...Object.fromEntries(WEEKDAYS.map((day) => [`weekly.${day}`, dayName(day)])),
});

/**
 * Settings → Business hours: when the business answers, the away reply customers get outside those
 * hours, and the satisfaction survey sent when a conversation is closed (manage_workspace).
 */
export function BusinessHoursSettings() {
  const { user } = useSession();
  const allowed = can(user, 'manage_workspace');
  return (
    <Page title={t('routing:hours.title')}>
      <SettingsNav />
      {allowed ? (
        <>
          <HoursLoader />
          <SurveyLoader />
        </>
      ) : (
        <p class="warning">{t('routing:hours.onlyAdmins')}</p>
      )}
    </Page>
  );
}

function HoursLoader() {
  const hours = useAsync(() => action('get-business-hours', {}), []);
  return (
    <>
      <ErrorNote error={hours.error} />
      {hours.data && <HoursForm hours={hours.data} />}
    </>
  );
}

/** A time input shows midnight as 00:00; as a closing time it is the end of the day, 24:00. */
const shownTime = (time: string) => (time === '24:00' ? '00:00' : time);
const closingTime = (time: string) => (time === '00:00' ? '24:00' : time);

/** The week as the API takes it: each closing midnight as 24:00. */
function closingWeek(weekly: BusinessHours['weekly']): BusinessHours['weekly'] {
  const week = { ...weekly };
  for (const day of WEEKDAYS) week[day] = weekly[day].map((i) => ({ opens: i.opens, closes: closingTime(i.closes) }));
  return week;
}

function HoursForm({ hours }: { hours: BusinessHours }) {
  const [enabled, setEnabled] = useState(hours.enabled);
  const [timeZone, setTimeZone] = useState(hours.time_zone);
  const [weekly, setWeekly] = useState(hours.weekly);
  const [holidays, setHolidays] = useState(hours.holidays);
  const [away, setAway] = useState(hours.away_message);
  const [openNow, setOpenNow] = useState(hours.open_now);
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [enabled, timeZone, weekly, holidays, away]);
  const zones = useMemo(() => timeZoneNames(hours.time_zone), [hours.time_zone]);
  const awayId = useId();
  const zoneId = useId();
  const save = useSubmit(async () => {
    const next = await action('update-business-hours', {
      enabled,
      time_zone: timeZone,
      weekly: closingWeek(weekly),
      holidays,
      away_message: away,
    });
    setOpenNow(next.open_now);
    setSaved(true);
  });
  const errors = fieldErrors(save.error, hoursLabels());
  const setDay = (day: Weekday, intervals: Interval[]) => setWeekly({ ...weekly, [day]: intervals });

  return (
    <form onSubmit={save.onSubmit} aria-label={t('routing:hours.title')} class="settings-form">
      <p class="muted">
        {t('routing:hours.intro')} {openNow ? t('routing:hours.openNow') : t('routing:hours.closedNow')}
      </p>
      <label class="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        {t('routing:hours.sendAway')}
      </label>
      <div class="field">
        <label for={zoneId}>{t('routing:hours.timeZone')}</label>
        <select
          id={zoneId}
          value={timeZone}
          onChange={(e) => setTimeZone(e.currentTarget.value)}
          aria-describedby={`${zoneId}-note`}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        <small id={`${zoneId}-note`} class={errors.field('time_zone') ? 'error' : 'hint'}>
          {errors.field('time_zone') ?? t('routing:hours.timeZoneHint')}
        </small>
      </div>
      {WEEKDAYS.map((day) => (
        <DayHours
          key={day}
          day={day}
          intervals={weekly[day]}
          onChange={(intervals) => setDay(day, intervals)}
          error={errors.field(`weekly.${day}`)}
        />
      ))}
      <Holidays dates={holidays} onChange={setHolidays} error={errors.field('holidays')} />
      <div class="field">
        <label for={awayId}>{t('routing:hours.awayMessage')}</label>
        <textarea
          id={awayId}
          rows={3}
          maxLength={4096}
          value={away}
          onInput={(e) => setAway(e.currentTarget.value)}
          aria-describedby={`${awayId}-note`}
          aria-invalid={errors.field('away_message') ? true : undefined}
        />
        <small id={`${awayId}-note`} class={errors.field('away_message') ? 'error' : 'hint'}>
          {errors.field('away_message') ?? t('routing:hours.awayMessageHint')}
        </small>
      </div>
      <button class="primary" type="submit" disabled={save.busy}>
        {t('routing:hours.save')}
      </button>
      <ErrorNote error={errors.note} />
      <p role="status" class="status-line">
        {saved ? t('routing:hours.saved') : ''}
      </p>
    </form>
  );
}

/** One weekday: its open intervals (none: closed all day). */
function DayHours(props: {
  day: Weekday;
  intervals: Interval[];
  onChange: (intervals: Interval[]) => void;
  error: string | undefined;
}) {
  const name = dayName(props.day);
  const errorId = useId();
  const change = (index: number, field: keyof Interval, value: string) =>
    props.onChange(props.intervals.map((interval, i) => (i === index ? { ...interval, [field]: value } : interval)));
  return (
    <fieldset class="plain day-hours" aria-describedby={props.error ? errorId : undefined}>
      <legend>{name}</legend>
      {props.intervals.length === 0 && <span class="muted">{t('routing:hours.closed')}</span>}
      {props.intervals.map((interval, index) => (
        <span key={index} class="interval">
          <label>
            <Rich text={t('routing:hours.opens', { day: name })} />{' '}
            <input
              type="time"
              required
              value={interval.opens}
              onInput={(e) => change(index, 'opens', e.currentTarget.value)}
            />
          </label>
          <label>
            <Rich text={t('routing:hours.closes', { day: name })} />{' '}
            <input
              type="time"
              required
              value={shownTime(interval.closes)}
              onInput={(e) => change(index, 'closes', e.currentTarget.value)}
            />
          </label>
          <button
            type="button"
            aria-label={t('routing:hours.removeHours', {
              day: name,
              opens: formatClock(interval.opens),
              closes: formatClock(interval.closes),
            })}
            onClick={() => props.onChange(props.intervals.filter((_, i) => i !== index))}
          >
            {t('routing:hours.remove')}
          </button>
        </span>
      ))}
      <button
        type="button"
        aria-label={t('routing:hours.addHoursOn', { day: name })}
        onClick={() => props.onChange([...props.intervals, { opens: '09:00', closes: '17:00' }])}
      >
        {t('routing:hours.addHours')}
      </button>
      {props.error && (
        <small id={errorId} class="error">
          {props.error}
        </small>
      )}
    </fieldset>
  );
}

/** Dates closed all day, whatever the weekday says. */
function Holidays(props: { dates: string[]; onChange: (dates: string[]) => void; error: string | undefined }) {
  const [date, setDate] = useState('');
  const id = useId();
  const add = () => {
    if (date && !props.dates.includes(date)) props.onChange([...props.dates, date].sort());
    setDate('');
  };
  return (
    <fieldset class="plain">
      <legend>{t('routing:hours.holidays')}</legend>
      {props.dates.length === 0 ? (
        <p class="muted">{t('routing:hours.noHolidays')}</p>
      ) : (
        <ul class="holidays">
          {props.dates.map((day) => (
            <li key={day}>
              {formatDay(day)}{' '}
              <button type="button" onClick={() => props.onChange(props.dates.filter((d) => d !== day))}>
                {t('routing:hours.removeHoliday', { day: formatDay(day) })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="field">
        <label for={id}>{t('routing:hours.holidayDate')}</label>
        <input id={id} type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} />
      </div>
      <button type="button" onClick={add} disabled={!date}>
        {t('routing:hours.addHoliday')}
      </button>
      {props.error && <small class="error">{props.error}</small>}
    </fieldset>
  );
}

function SurveyLoader() {
  const settings = useAsync(() => action('get-satisfaction-survey-settings', {}), []);
  return (
    <>
      <ErrorNote error={settings.error} />
      {settings.data && <SurveyForm enabled={settings.data.enabled} />}
    </>
  );
}

/** The satisfaction survey: off by default. */
function SurveyForm(props: { enabled: boolean }) {
  const [enabled, setEnabled] = useState(props.enabled);
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [enabled]);
  const save = useSubmit(async () => {
    await action('update-satisfaction-survey-settings', { enabled });
    setSaved(true);
  });
  return (
    <form onSubmit={save.onSubmit} aria-labelledby="survey-title" class="settings-form">
      <h2 id="survey-title">{t('routing:survey.title')}</h2>
      <label class="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        {t('routing:survey.ask', { lowest: formatNumber(1), highest: formatNumber(5) })}
      </label>
      <p class="muted">{t('routing:survey.hint')}</p>
      <button class="primary" type="submit" disabled={save.busy}>
        {t('routing:survey.save')}
      </button>
      <ErrorNote error={save.error} />
      <p role="status" class="status-line">
        {saved ? t('routing:survey.saved') : ''}
      </p>
    </form>
  );
}
