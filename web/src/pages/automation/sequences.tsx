import { useState } from 'preact/hooks';
import { action, v1, type ActionAnswer } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { Link, navigate } from '../../router';
import { formatDateTime, formatWeekday } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import {
  ForContactForm,
  SummaryList,
  problemsOf,
  problemsUnder,
  ProblemList,
  StateCounts,
  recordState,
  stateName,
  useChoices,
  useTemplates,
  type FieldProblem,
} from './common';
import { newStep, relevantProblems, stepDraft, StepEditor, stepOf, type StepDraft } from './sequence-steps';
import './words';

const ENROLMENT_STATES = ['active', 'waiting', 'completed', 'exited', 'failed'];

type Sequence = ActionAnswer<'get-sequence'>;

/** A flow's run or a sequence's enrolment, as the triggers list them. */
export type RunRecord = PublicSchema<'FlowTriggeredRecord'> | PublicSchema<'SequenceTriggeredRecord'>;

/** Sequences: every drip sequence with its enrolments by state. */
export function SequenceList() {
  return (
    <SummaryList
      title={t('automation:sequences.title')}
      intro={t('automation:sequences.intro')}
      path="sequences"
      newLabel={t('automation:sequences.new')}
      empty={t('automation:sequences.empty')}
      columns={ENROLMENT_STATES.map((state) => ({
        label: columnName(state),
        count: (counts: Record<string, number>) => counts[state] ?? 0,
      }))}
    />
  );
}

/** A state's column heading in the list: one word ("Waiting", not "Waiting for reply"). */
const columnName = (state: string) => (state === 'waiting' ? t('automation:sequences.waiting') : stateName(state));

/** /sequences/new and /sequences/:id: the editor, and for a saved one its enrolments. */
export function SequencePage({ id }: { id?: string }) {
  const sequence = useAsync(() => (id ? action('get-sequence', { sequence_id: id }) : Promise.resolve(null)), [id]);
  const title = id ? (sequence.data?.name ?? t('automation:sequences.sequence')) : t('automation:sequences.new');
  return (
    <Page title={title} actions={<Link href="/sequences">{t('automation:sequences.all')}</Link>}>
      <ErrorNote error={sequence.error} />
      {sequence.loading && !sequence.data && <p class="loading">{t('automation:loading')}</p>}
      {!sequence.loading || sequence.data ? (
        <div class={id ? 'automation-layout' : ''}>
          {(sequence.data || !id) && (
            <SequenceEditor key={sequence.data?.updated_at ?? 'new'} sequence={sequence.data ?? null} />
          )}
          {id && sequence.data && <Enrolments sequence={sequence.data} reload={sequence.reload} />}
        </div>
      ) : null}
    </Page>
  );
}

/** The days of sending hours as the API numbers them: 1 = Monday … 7 = Sunday. */
const DAYS = [1, 2, 3, 4, 5, 6, 7];

function SequenceEditor({ sequence }: { sequence: Sequence | null }) {
  const templates = useTemplates();
  const flows = useChoices('flows');
  const [name, setName] = useState(sequence?.name ?? '');
  const [hoursOn, setHoursOn] = useState(Boolean(sequence?.sending_hours));
  const [start, setStart] = useState(sequence?.sending_hours?.start ?? '09:00');
  const [end, setEnd] = useState(sequence?.sending_hours?.end ?? '17:00');
  const [days, setDays] = useState<number[]>(sequence?.sending_hours?.days ?? [1, 2, 3, 4, 5]);
  const [exitReply, setExitReply] = useState(sequence?.exit_on?.reply ?? true);
  const [exitTags, setExitTags] = useState((sequence?.exit_on?.tags ?? []).join(', '));
  const [steps, setSteps] = useState<StepDraft[]>(() => sequence?.steps.map(stepDraft) ?? [newStep()]);
  const [saved, setSaved] = useState(false);

  const save = useSubmit(async () => {
    setSaved(false);
    const tags = exitTags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const result = await action('save-sequence', {
      ...(sequence && { id: sequence.id }),
      name,
      steps: steps.map(stepOf),
      ...(hoursOn && { sending_hours: { start, end, days: [...days].sort() } }),
      exit_on: { reply: exitReply, ...(tags.length > 0 && { tags }) },
    });
    if (sequence) setSaved(true);
    else navigate(`/sequences/${result.id}`, { replace: true });
  });
  const problems = problemsOf(save.error);
  // What each step shows; the count below is of exactly these, never of the request check's union noise.
  const stepProblems = steps.map((step, i) => relevantProblems(problemsUnder(problems, `/steps/${i}`), step.type));
  const otherProblems = problems.filter((p) => !/^\/steps\/\d+(\/|$)/.test(p.field));
  const shown = otherProblems.length + stepProblems.reduce((sum, list) => sum + list.length, 0);

  const update = (i: number, step: StepDraft, fields: string[]) => {
    setSteps(steps.map((s, j) => (j === i ? step : s)));
    save.edited(...fields.map((field) => `/steps/${i}/${field}`));
  };
  /** Moved or removed steps change the indexes the problems name: theirs no longer fit. */
  const reorder = (next: StepDraft[]) => {
    setSteps(next);
    save.edited('/steps');
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...steps];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    reorder(next);
  };

  return (
    <form class="automation-editor" onSubmit={save.onSubmit} aria-label={t('automation:sequences.sequence')} noValidate>
      <TextField
        label={t('automation:name')}
        value={name}
        onValue={(value) => {
          setName(value);
          save.edited('/name');
        }}
        maxLength={200}
        required
        error={fieldMessage(problems, '/name')}
      />
      <fieldset class="group">
        <legend>{t('automation:sequences.sendingHours')}</legend>
        <label class="check">
          <input type="checkbox" checked={hoursOn} onChange={(e) => setHoursOn(e.currentTarget.checked)} />
          {t('automation:sequences.limitHours')}
        </label>
        {hoursOn && (
          <>
            <div class="day-picker" role="group" aria-label={t('automation:sequences.days')}>
              {DAYS.map((day) => (
                <label class="check" key={day}>
                  <input
                    type="checkbox"
                    checked={days.includes(day)}
                    onChange={(e) => setDays(e.currentTarget.checked ? [...days, day] : days.filter((d) => d !== day))}
                  />
                  {formatWeekday(day % 7)}
                </label>
              ))}
            </div>
            <div class="inline-form">
              <TextField label={t('automation:sequences.from')} type="time" value={start} onValue={setStart} />
              <TextField label={t('automation:sequences.to')} type="time" value={end} onValue={setEnd} />
            </div>
          </>
        )}
      </fieldset>
      <fieldset class="group">
        <legend>{t('automation:sequences.exitConditions')}</legend>
        <label class="check">
          <input type="checkbox" checked={exitReply} onChange={(e) => setExitReply(e.currentTarget.checked)} />
          {t('automation:sequences.exitOnReply')}
        </label>
        <TextField
          label={t('automation:sequences.exitTags')}
          value={exitTags}
          onValue={setExitTags}
          hint={t('automation:sequences.exitTagsHint')}
        />
      </fieldset>
      <ProblemList
        problems={otherProblems}
        labels={{ '/definition/steps': t('automation:sequences.steps'), '/steps': t('automation:sequences.steps') }}
      />
      <h2>{t('automation:sequences.steps')}</h2>
      <ErrorNote error={templates.error ?? flows.error} />
      <ol class="steps">
        {steps.map((step, i) => (
          <li key={step.key}>
            <StepEditor
              index={i}
              count={steps.length}
              step={step}
              problems={stepProblems[i]!}
              templates={templates.data ?? []}
              flows={flows.data ?? []}
              onChange={(s, fields) => update(i, s, fields)}
              onMove={(by) => move(i, by)}
              onRemove={() => reorder(steps.filter((_, j) => j !== i))}
            />
          </li>
        ))}
      </ol>
      <div class="form-actions">
        <button type="button" onClick={() => setSteps([...steps, newStep('add_tag')])}>
          {t('automation:sequences.addStep')}
        </button>
        <button type="submit" class="primary" disabled={save.busy}>
          {t('automation:sequences.save')}
        </button>
      </div>
      {shown > 0 && (
        <p class="error" role="alert">
          {t('automation:sequences.notSaved', { count: shown })}
        </p>
      )}
      {save.error !== null && problems.length === 0 && <ErrorNote error={save.error} />}
      {saved && (
        <p class="notice" role="status">
          {t('automation:saved')}
        </p>
      )}
    </form>
  );
}

function fieldMessage(problems: FieldProblem[], field: string): string | undefined {
  return problems.find((p) => p.field === field)?.message;
}

/** Counts by state, the enrol form and the latest enrolments of a saved sequence. */
function Enrolments({ sequence, reload }: { sequence: Sequence; reload: () => void }) {
  const recent = useAsync(
    () => v1.get('/v1/triggers/new-sequence-triggered', { query: { sequence_id: sequence.id } }),
    [sequence.id, sequence.enrolments],
  );
  const enrol = async (phone: string) => {
    const record = await action('trigger-sequence', { sequence_id: sequence.id, phone });
    reload();
    return t('automation:sequences.enrolled', { phone: record.contact_phone });
  };
  return (
    <aside class="automation-side" aria-label={t('automation:sequences.enrolments')}>
      <h2>{t('automation:sequences.enrolments')}</h2>
      <StateCounts
        counts={sequence.enrolments}
        states={ENROLMENT_STATES}
        label={t('automation:sequences.enrolmentsByState')}
      />
      <ForContactForm
        label={t('automation:sequences.enrolContact')}
        submit={t('automation:sequences.enrol')}
        run={enrol}
      />
      <h3>{t('automation:sequences.recentEnrolments')}</h3>
      <ErrorNote error={recent.error} />
      <RunTable records={recent.data ?? []} caption={t('automation:sequences.recentEnrolments')} />
    </aside>
  );
}

/** Contacts enrolled or run, newest first. */
export function RunTable({ records, caption }: { records: RunRecord[]; caption: string }) {
  if (records.length === 0) return <p class="muted">{t('automation:noneYet')}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('automation:sequences.contact')}</th>
            <th scope="col">{t('automation:sequences.state')}</th>
            <th scope="col">{t('automation:sequences.started')}</th>
          </tr>
        </thead>
        <tbody>
          {records.slice(0, 20).map((r) => (
            <tr key={r.id}>
              <td>
                <Link href={`/contacts/${r.contact_id}`}>{r.contact_name ?? r.contact_phone}</Link>
              </td>
              <td>{recordState(r.status)}</td>
              <td>{formatDateTime(r.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
