import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { action } from '../api';
import { can, useSession } from '../session';
import { timeZoneNames } from '../time-zones';
import { ErrorNote, Page, fieldErrors, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type Weekday = (typeof WEEKDAYS)[number];
const dayName = (day: Weekday) => day[0]!.toUpperCase() + day.slice(1);

interface Interval {
  opens: string;
  closes: string;
}

/** What get-business-hours answers. */
interface BusinessHours {
  enabled: boolean;
  time_zone: string;
  weekly: Record<Weekday, Interval[]>;
  holidays: string[];
  away_message: string;
  open_now: boolean;
}

const LABELS: Record<string, string> = {
  time_zone: 'Time zone',
  holidays: 'Holidays',
  away_message: 'Away message',
  ...Object.fromEntries(WEEKDAYS.map((day) => [`weekly.${day}`, dayName(day)])),
};

/**
 * Settings → Business hours: when the business answers, the away reply customers get outside those
 * hours, and the satisfaction survey sent when a conversation is closed (manage_workspace).
 */
export function BusinessHoursSettings() {
  const { user } = useSession();
  const allowed = can(user, 'manage_workspace');
  return (
    <Page title="Business hours">
      <SettingsNav />
      {allowed ? (
        <>
          <HoursLoader />
          <SurveyLoader />
        </>
      ) : (
        <p class="warning">Only a workspace owner or admin can see and change business hours.</p>
      )}
    </Page>
  );
}

function HoursLoader() {
  const hours = useAsync(() => action<BusinessHours>('get-business-hours'), []);
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
    const week = Object.fromEntries(
      WEEKDAYS.map((day) => [day, weekly[day].map((i) => ({ opens: i.opens, closes: closingTime(i.closes) }))]),
    );
    const next = await action<BusinessHours>('update-business-hours', {
      enabled,
      time_zone: timeZone,
      weekly: week,
      holidays,
      away_message: away,
    });
    setOpenNow(next.open_now);
    setSaved(true);
  });
  const errors = fieldErrors(save.error, LABELS);
  const setDay = (day: Weekday, intervals: Interval[]) => setWeekly({ ...weekly, [day]: intervals });

  return (
    <form onSubmit={save.onSubmit} aria-label="Business hours" class="settings-form">
      <p class="muted">
        While the away reply is on, a customer who writes outside these hours (or on a holiday) is told so once per
        conversation: a free-form reply inside the 24-hour window their message opened, never a template. Contacts who
        opted out get none. {openNow ? 'By these hours you are open now.' : 'By these hours you are closed now.'}
      </p>
      <label class="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        Send the away reply outside business hours
      </label>
      <div class="field">
        <label for={zoneId}>Time zone</label>
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
          {errors.field('time_zone') ?? 'The hours below are in this zone.'}
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
        <label for={awayId}>Away message</label>
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
          {errors.field('away_message') ?? 'What customers read when they write outside business hours.'}
        </small>
      </div>
      <button class="primary" type="submit" disabled={save.busy}>
        Save business hours
      </button>
      <ErrorNote error={errors.note} />
      <p role="status" class="status-line">
        {saved ? 'Business hours saved.' : ''}
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
      {props.intervals.length === 0 && <span class="muted">Closed</span>}
      {props.intervals.map((interval, index) => (
        <span key={index} class="interval">
          <label>
            <span class="visually-hidden">{name} </span>Opens{' '}
            <input
              type="time"
              required
              value={interval.opens}
              onInput={(e) => change(index, 'opens', e.currentTarget.value)}
            />
          </label>
          <label>
            <span class="visually-hidden">{name} </span>Closes{' '}
            <input
              type="time"
              required
              value={shownTime(interval.closes)}
              onInput={(e) => change(index, 'closes', e.currentTarget.value)}
            />
          </label>
          <button
            type="button"
            aria-label={`Remove ${name} ${interval.opens}–${interval.closes}`}
            onClick={() => props.onChange(props.intervals.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </span>
      ))}
      <button
        type="button"
        aria-label={`Add hours on ${name}`}
        onClick={() => props.onChange([...props.intervals, { opens: '09:00', closes: '17:00' }])}
      >
        Add hours
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
      <legend>Holidays</legend>
      {props.dates.length === 0 ? (
        <p class="muted">No holidays.</p>
      ) : (
        <ul class="holidays">
          {props.dates.map((day) => (
            <li key={day}>
              {day}{' '}
              <button type="button" onClick={() => props.onChange(props.dates.filter((d) => d !== day))}>
                Remove {day}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="field">
        <label for={id}>Holiday date</label>
        <input id={id} type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} />
      </div>
      <button type="button" onClick={add} disabled={!date}>
        Add holiday
      </button>
      {props.error && <small class="error">{props.error}</small>}
    </fieldset>
  );
}

function SurveyLoader() {
  const settings = useAsync(() => action<{ enabled: boolean }>('get-satisfaction-survey-settings'), []);
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
      <h2 id="survey-title">Satisfaction survey</h2>
      <label class="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        When an agent closes a conversation, ask the customer to rate it from 1 to 5
      </label>
      <p class="muted">
        Sent as a WhatsApp list only while the customer’s 24-hour window is open. Ratings show in the conversation and
        per agent in Reports; a rating does not reopen the conversation.
      </p>
      <button class="primary" type="submit" disabled={save.busy}>
        Save survey setting
      </button>
      <ErrorNote error={save.error} />
      <p role="status" class="status-line">
        {saved ? 'Survey setting saved.' : ''}
      </p>
    </form>
  );
}
