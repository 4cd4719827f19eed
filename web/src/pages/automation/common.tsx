import { useId, useState } from 'preact/hooks';
import { ApiError, problemWords } from '../../api';
import { action, dashboard, v1, type PublicAnswer } from '../../api/client';
import type { TemplateSummary } from '../templates/template-parts';
import { Link } from '../../router';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';

// ---- Durations: ISO 8601 (PT30M, P1D) shown as a number and a unit ---------------------------------

export type DurationUnit = 'M' | 'H' | 'D' | 'W';
export interface DurationDraft {
  amount: string;
  unit: DurationUnit;
}

const UNIT_SECONDS: Record<DurationUnit, number> = { W: 604_800, D: 86_400, H: 3600, M: 60 };
const UNITS: DurationUnit[] = ['M', 'H', 'D', 'W'];
const ISO = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** "P1DT12H" → 36 hours: the largest unit that expresses it exactly (minutes at the least). */
export function parseDuration(iso: string | undefined, fallback: DurationDraft): DurationDraft {
  const match = iso ? ISO.exec(iso) : null;
  if (!match) return fallback;
  const [w, d, h, m, s] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number];
  const seconds = w * 604_800 + d * 86_400 + h * 3600 + m * 60 + s;
  if (seconds === 0) return { amount: '0', unit: fallback.unit };
  const unit = (['W', 'D', 'H', 'M'] as const).find((u) => seconds % UNIT_SECONDS[u] === 0) ?? 'M';
  return { amount: String(Math.round(seconds / UNIT_SECONDS[unit])), unit };
}

/** 3 days → "P3D", 90 minutes → "PT90M"; undefined for an empty amount. */
export function formatDuration({ amount, unit }: DurationDraft): string | undefined {
  const n = amount.trim();
  if (n === '') return undefined;
  if (Number(n) === 0) return 'PT0S';
  return unit === 'D' || unit === 'W' ? `P${n}${unit}` : `PT${n}${unit}`;
}

/** A unit's name as the amount takes it: "1 day", "2 days" (and the language's other plural forms). */
function unitName(unit: DurationUnit, amount: string): string {
  const count = Number(amount) || 0;
  switch (unit) {
    case 'M':
      return t('automation:duration.M', { count });
    case 'H':
      return t('automation:duration.H', { count });
    case 'D':
      return t('automation:duration.D', { count });
    case 'W':
      return t('automation:duration.W', { count });
  }
}

/** A number and a unit, read together as one duration (a fieldset names the pair). */
export function DurationField(props: {
  legend: string;
  value: DurationDraft;
  onChange: (value: DurationDraft) => void;
  min?: number;
  invalid?: boolean;
}) {
  const id = useId();
  return (
    <fieldset class={props.invalid ? 'duration-field invalid' : 'duration-field'}>
      <legend>{props.legend}</legend>
      <label class="visually-hidden" for={`${id}-n`}>
        {t('automation:duration.amount', { legend: props.legend })}
      </label>
      <input
        id={`${id}-n`}
        type="number"
        inputMode="numeric"
        min={props.min ?? 0}
        step={1}
        value={props.value.amount}
        onInput={(e) => props.onChange({ ...props.value, amount: e.currentTarget.value })}
      />
      <label class="visually-hidden" for={`${id}-u`}>
        {t('automation:duration.unit', { legend: props.legend })}
      </label>
      <select
        id={`${id}-u`}
        value={props.value.unit}
        onChange={(e) => props.onChange({ ...props.value, unit: e.currentTarget.value as DurationUnit })}
      >
        {UNITS.map((unit) => (
          <option key={unit} value={unit}>
            {unitName(unit, props.value.amount)}
          </option>
        ))}
      </select>
    </fieldset>
  );
}

// ---- Field problems by JSON Pointer ----------------------------------------------------------------

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * The problems of a failed save as JSON Pointers: the services name `/steps/0/delay`, while the
 * request-schema check names `steps.0.delay`; both become the pointer, and the message is in words.
 */
export function problemsOf(error: unknown): FieldProblem[] {
  if (!(error instanceof ApiError)) return [];
  const seen = new Set<string>();
  return (error.problem.errors ?? []).flatMap((problem) => {
    const { field, message } = problem;
    const pointer = field.startsWith('/') ? field : `/${field.replaceAll('.', '/')}`;
    const key = `${pointer} ${message}`;
    if (seen.has(key)) return []; // a union's variants repeat the problems of the fields they share
    seen.add(key);
    return [{ field: pointer, message: problemWords(problem) }];
  });
}

/** The problems at or under `prefix` (a JSON Pointer), with the rest of their path. */
export function problemsUnder(problems: FieldProblem[], prefix: string): FieldProblem[] {
  return problems
    .filter((p) => p.field === prefix || p.field.startsWith(`${prefix}/`))
    .map((p) => ({ field: p.field.slice(prefix.length + 1), message: p.message }));
}

/**
 * The label a form shows for a problem's field: the longest prefix `labels` names (keys are JSON
 * Pointers, "/audience/tag"), else the pointer in words ("steps/1/delay" → "Step 2 delay").
 */
export function fieldLabel(pointer: string, labels: Record<string, string> = {}): string {
  const absolute = pointer.startsWith('/') ? pointer : `/${pointer}`;
  const prefix = Object.keys(labels)
    .filter((key) => absolute === key || absolute.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix) return labels[prefix]!;
  const parts = absolute.split('/').filter(Boolean);
  const words = parts.map((part, i) => {
    if (/^\d+$/.test(part)) return String(Number(part) + 1);
    const word = part.replaceAll('_', ' ');
    return /^\d+$/.test(parts[i + 1] ?? '') ? singular(word) : word;
  });
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "branches" → "branch", "steps" → "step": a list's name for one of its items. */
const singular = (word: string) => word.replace(/(ch|sh|x|ss)es$/, '$1').replace(/([^s])s$/, '$1');

/**
 * A list of problems next to the part they are about, each naming its field by label, announced when it
 * appears. The alert wraps the list: as the list's own role it would hide that the items are a list.
 */
export function ProblemList(props: { problems: FieldProblem[]; id?: string; labels?: Record<string, string> }) {
  if (props.problems.length === 0) return null;
  return (
    <div class="problem-list error" id={props.id} role="alert">
      <ul>
        {props.problems.map((p) => (
          <li key={`${p.field}:${p.message}`}>
            {p.field && <strong class="problem-field">{fieldLabel(p.field, props.labels)}</strong>} {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

// ---- Pick-lists ------------------------------------------------------------------------------------

/** One item of a pick-list: {id, label}. */
export type Choice = PublicAnswer<'/v1/dropdowns/flows'>[number];

/** GET /api/v1/dropdowns/NAME: a workspace's sequences, flows or templates as {id, label}. */
export function useChoices(name: 'sequences' | 'flows' | 'templates') {
  return useAsync(() => v1.get(`/v1/dropdowns/${name}`), [name]);
}

export type { TemplateSummary };

/** The workspace's templates with their placeholders and translations (list-templates). */
export function useTemplates(status = '') {
  return useAsync(() => action('list-templates', { status }), [status]);
}

/** A template's variables as the API takes them: the body's values in order, or keyed by variable id. */
export type TemplateVariables = string[] | Record<string, string>;

export interface TemplateChoice {
  template_id: string;
  language: string;
  variables: TemplateVariables;
}

/** True when the choice gives any variable (an empty list or map is left out of what is saved). */
export const givesVariables = (variables: TemplateVariables) => Object.keys(variables).length > 0;

/** A stored `variables` value, or none when it is neither form. */
export const storedVariables = (value: unknown): TemplateVariables =>
  Array.isArray(value) || (typeof value === 'object' && value !== null) ? (value as TemplateVariables) : [];

/**
 * The variable inputs of a template: one per variable it takes. Values stay an array while only the
 * body takes variables (the form integrations know), and become a map keyed by id once a header or
 * button does.
 */
function variableInputs(template: TemplateSummary, variables: TemplateVariables) {
  const slots = template.variables;
  const valueOf = (id: string) =>
    (Array.isArray(variables) ? variables[template.placeholders.indexOf(id)] : variables[id]) ?? '';
  const withValue = (id: string, value: string): TemplateVariables => {
    const values = slots.map((slot) => (slot.id === id ? value : valueOf(slot.id)));
    const bodyOnly = slots.every((slot, i) => template.placeholders[i] === slot.id);
    return bodyOnly ? values : Object.fromEntries(slots.map((slot, i) => [slot.id, values[i]!]));
  };
  return { slots, valueOf, withValue };
}

/** Template, translation and one input per variable, as send_template steps and campaigns take them. */
/** The media a template's header needs ("image"), or null for a text header or none. */
export const headerMedia = (template: TemplateSummary | undefined) =>
  template?.header_type && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(template.header_type)
    ? template.header_type.toLowerCase()
    : null;

/** The label of a media header's link field ("Header image link"). */
export function headerMediaLabel(media: string | null): string {
  if (media === 'image') return t('automation:header.imageLink');
  if (media === 'video') return t('automation:header.videoLink');
  if (media === 'document') return t('automation:header.documentLink');
  return t('automation:header.mediaLink');
}

/** What a media header's link field says it is for. */
function headerMediaHint(media: string): string {
  if (media === 'video') return t('automation:header.videoHint');
  if (media === 'document') return t('automation:header.documentHint');
  return t('automation:header.imageHint');
}

/** The link to a template's header image, video or document: shown only for templates with a media header. */
export function HeaderMediaField(props: {
  template: TemplateSummary | undefined;
  value: string;
  onValue: (value: string) => void;
  invalid?: boolean;
}) {
  const media = headerMedia(props.template);
  if (!media) return null;
  return (
    <TextField
      label={headerMediaLabel(media)}
      type="url"
      required
      value={props.value}
      onValue={props.onValue}
      placeholder={t('automation:header.placeholder')}
      hint={headerMediaHint(media)}
      aria-invalid={props.invalid || undefined}
    />
  );
}

export function TemplateFields(props: {
  templates: TemplateSummary[];
  value: TemplateChoice;
  onChange: (value: TemplateChoice) => void;
  approvedOnly?: boolean;
  invalid?: (field: 'template_id' | 'language' | 'variables') => boolean;
}) {
  const id = useId();
  const { value, onChange } = props;
  const template = props.templates.find((choice) => choice.id === value.template_id);
  const inputs = template && variableInputs(template, value.variables);
  const languages =
    template?.translations
      .filter((translation) => !props.approvedOnly || translation.status === 'APPROVED')
      .map((translation) => translation.language) ?? [];
  const choose = (templateId: string) => {
    const chosen = props.templates.find((choice) => choice.id === templateId);
    onChange({ template_id: templateId, language: '', variables: chosen?.placeholders.map(() => '') ?? [] });
  };
  return (
    <div class="template-picker">
      <div class="field">
        <label for={`${id}-t`}>{t('automation:template')}</label>
        <select
          id={`${id}-t`}
          required
          value={value.template_id}
          aria-invalid={props.invalid?.('template_id') ? true : undefined}
          onChange={(e) => choose(e.currentTarget.value)}
        >
          <option value="">{t('automation:templatePicker.choose')}</option>
          {props.templates.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {props.approvedOnly
                ? choice.name
                : t('automation:templatePicker.withStatus', {
                    name: choice.name,
                    status: templateStatus(choice.status),
                  })}
            </option>
          ))}
        </select>
        {template && <small class="hint">{template.body}</small>}
      </div>
      <div class="field">
        <label for={`${id}-l`}>{t('automation:language')}</label>
        <select
          id={`${id}-l`}
          value={value.language}
          aria-invalid={props.invalid?.('language') ? true : undefined}
          onChange={(e) => onChange({ ...value, language: e.currentTarget.value })}
        >
          <option value="">
            {template
              ? t('automation:templatePicker.defaultLanguage', { language: template.language })
              : t('automation:templatePicker.default')}
          </option>
          {languages.map((language) => (
            <option key={language} value={language}>
              {language}
            </option>
          ))}
        </select>
      </div>
      {inputs?.slots.map((slot, i) => (
        <div class="field" key={slot.id}>
          <label for={`${id}-v${i}`}>{t('automation:templatePicker.variable', { label: slot.label })}</label>
          <input
            id={`${id}-v${i}`}
            value={inputs.valueOf(slot.id)}
            placeholder={t('automation:templatePicker.example', { example: '{{contact.name}}' })}
            aria-invalid={props.invalid?.('variables') ? true : undefined}
            onInput={(e) => onChange({ ...value, variables: inputs.withValue(slot.id, e.currentTarget.value) })}
          />
        </div>
      ))}
    </div>
  );
}

/** A template's status (Meta's APPROVED, PENDING…) in words; an unknown one as it is, in lower case. */
function templateStatus(status: string): string {
  const names: Record<string, string> = {
    APPROVED: t('automation:templateStatus.APPROVED'),
    PENDING: t('automation:templateStatus.PENDING'),
    REJECTED: t('automation:templateStatus.REJECTED'),
    PAUSED: t('automation:templateStatus.PAUSED'),
    DISABLED: t('automation:templateStatus.DISABLED'),
    IN_APPEAL: t('automation:templateStatus.IN_APPEAL'),
    PENDING_DELETION: t('automation:templateStatus.PENDING_DELETION'),
    DELETED: t('automation:templateStatus.DELETED'),
    LIMIT_EXCEEDED: t('automation:templateStatus.LIMIT_EXCEEDED'),
    ARCHIVED: t('automation:templateStatus.ARCHIVED'),
  };
  return names[status] ?? status.toLowerCase();
}

// ---- Counts by state -------------------------------------------------------------------------------

/** One enrolment's or run's state (the API's value) in words; an unknown one as it is. */
export function recordState(state: string): string {
  const names: Record<string, string> = {
    active: t('automation:state.active'),
    waiting: t('automation:state.waiting'),
    completed: t('automation:state.completed'),
    exited: t('automation:state.exited'),
    failed: t('automation:state.failed'),
    handed_off: t('automation:state.handed_off'),
    cancelled: t('automation:state.cancelled'),
  };
  return names[state] ?? state;
}

/** A state (the API's value) as a heading over the enrolments or runs in it; an unknown one as it is. */
export function stateName(state: string): string {
  const names: Record<string, string> = {
    active: t('automation:states.active'),
    waiting: t('automation:states.waiting'),
    completed: t('automation:states.completed'),
    exited: t('automation:states.exited'),
    failed: t('automation:states.failed'),
    handed_off: t('automation:states.handed_off'),
    cancelled: t('automation:states.cancelled'),
  };
  return names[state] ?? state;
}

/** "Active 3 · Completed 10": how many enrolments or runs are in each state. */
export function StateCounts({
  counts,
  states,
  label,
}: {
  counts: Record<string, number>;
  states: string[];
  label: string;
}) {
  return (
    <dl class="state-counts" aria-label={label}>
      {states.map((state) => (
        <div key={state} data-state={state}>
          <dt>{stateName(state)}</dt>
          <dd>{formatNumber(counts[state] ?? 0)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A short unique key for list items the user adds, removes and reorders. */
let keys = 0;
export const newKey = () => `k${++keys}`;

/**
 * "Enrol a contact" / "Start for a contact": a phone, a button, and what happened. `run` returns the
 * sentence to show (the enrolment or run it made).
 */
export function ForContactForm(props: { label: string; submit: string; run: (phone: string) => Promise<string> }) {
  const [phone, setPhone] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const submit = useSubmit(async () => {
    setDone(null);
    setDone(await props.run(phone));
    setPhone('');
  });
  return (
    <>
      <form class="inline-form" onSubmit={submit.onSubmit} aria-label={props.label}>
        <TextField
          label={t('automation:forContact.phone', { label: props.label })}
          type="tel"
          required
          value={phone}
          onValue={setPhone}
          placeholder="+14155550100"
          autoComplete="off"
        />
        <button type="submit" class="primary" disabled={submit.busy}>
          {props.submit}
        </button>
      </form>
      <ErrorNote error={submit.error} />
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </>
  );
}

/** A count column of a list: its heading and how it reads a row's counts by state. */
export interface CountColumn {
  label: string;
  count: (counts: Record<string, number>) => number;
}

/** The sequences and flows lists: each with a link, its counts by state and when it changed. */
export function SummaryList(props: {
  title: string;
  intro: string;
  /** The dashboard list endpoint and the page path. */
  path: 'flows' | 'sequences';
  /** The link to a new one ("New flow") and what the list says while there is none. */
  newLabel: string;
  empty: string;
  columns: CountColumn[];
}) {
  const list = useAsync(() => dashboard.get(`/api/dashboard/${props.path}`), [props.path]);
  return (
    <Page
      title={props.title}
      actions={
        <Link class="button primary" href={`/${props.path}/new`}>
          {props.newLabel}
        </Link>
      }
    >
      <p class="muted">{props.intro}</p>
      <ErrorNote error={list.error} />
      {list.data && list.data.length === 0 && <p>{props.empty}</p>}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t('automation:summary.caption', { title: props.title })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('automation:name')}</th>
                {props.columns.map((column) => (
                  <th scope="col" key={column.label} class="num">
                    {column.label}
                  </th>
                ))}
                <th scope="col">{t('automation:changed')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    <Link href={`/${props.path}/${row.id}`}>{row.name}</Link>
                  </th>
                  {props.columns.map((column) => (
                    <td key={column.label} class="num">
                      {formatNumber(column.count(row.counts))}
                    </td>
                  ))}
                  <td>{formatDateTime(row.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
