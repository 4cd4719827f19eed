import { useState } from 'preact/hooks';
import { action, api } from '../../api';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import {
  ForContactForm,
  SummaryList,
  problemsOf,
  problemsUnder,
  ProblemList,
  StateCounts,
  useChoices,
  useTemplates,
  type FieldProblem,
} from './common';
import {
  newStep,
  relevantProblems,
  stepDraft,
  StepEditor,
  stepOf,
  type SequenceStep,
  type StepDraft,
} from './sequence-steps';
import { formatDateTime } from '../../i18n/format';

const ENROLMENT_STATES = ['active', 'waiting', 'completed', 'exited', 'failed'];

interface Sequence {
  id: string;
  name: string;
  steps: SequenceStep[];
  sending_hours: { start: string; end: string; days?: number[] } | null;
  exit_on?: { reply?: boolean; tags?: string[] };
  enrolments: Record<string, number>;
  updated_at: string;
}

export interface RunRecord {
  id: string;
  contact_id: string;
  contact_phone: string;
  contact_name: string | null;
  status: string;
  created_at: string;
}

/** Sequences: every drip sequence with its enrolments by state. */
export function SequenceList() {
  return (
    <SummaryList
      title="Sequences"
      intro="Timed steps a contact goes through once enrolled: templates, texts, tags, flows."
      path="sequences"
      noun="sequence"
      columns={ENROLMENT_STATES.map((state) => ({
        label: state[0]!.toUpperCase() + state.slice(1),
        count: (counts: Record<string, number>) => counts[state] ?? 0,
      }))}
    />
  );
}

/** /sequences/new and /sequences/:id: the editor, and for a saved one its enrolments. */
export function SequencePage({ id }: { id?: string }) {
  const sequence = useAsync(
    () => (id ? action<Sequence>('get-sequence', { sequence_id: id }) : Promise.resolve(null)),
    [id],
  );
  const title = id ? (sequence.data?.name ?? 'Sequence') : 'New sequence';
  return (
    <Page title={title} actions={<Link href="/sequences">All sequences</Link>}>
      <ErrorNote error={sequence.error} />
      {sequence.loading && !sequence.data && <p class="loading">Loading…</p>}
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

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

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
    const result = await action<Sequence>('save-sequence', {
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
    <form class="automation-editor" onSubmit={save.onSubmit} aria-label="Sequence" noValidate>
      <TextField
        label="Name"
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
        <legend>Sending hours</legend>
        <label class="check">
          <input type="checkbox" checked={hoursOn} onChange={(e) => setHoursOn(e.currentTarget.checked)} />
          Limit steps marked “only within sending hours” to these hours (workspace time zone)
        </label>
        {hoursOn && (
          <>
            <div class="day-picker" role="group" aria-label="Days">
              {DAYS.map((day, i) => (
                <label class="check" key={day}>
                  <input
                    type="checkbox"
                    checked={days.includes(i + 1)}
                    onChange={(e) =>
                      setDays(e.currentTarget.checked ? [...days, i + 1] : days.filter((d) => d !== i + 1))
                    }
                  />
                  {day}
                </label>
              ))}
            </div>
            <div class="inline-form">
              <TextField label="From" type="time" value={start} onValue={setStart} />
              <TextField label="To" type="time" value={end} onValue={setEnd} />
            </div>
          </>
        )}
      </fieldset>
      <fieldset class="group">
        <legend>Exit conditions</legend>
        <label class="check">
          <input type="checkbox" checked={exitReply} onChange={(e) => setExitReply(e.currentTarget.checked)} />A reply
          from the contact ends the enrolment
        </label>
        <TextField
          label="Exit when tagged"
          value={exitTags}
          onValue={setExitTags}
          hint="Comma-separated tags; getting any of them ends the enrolment. Opting out always does."
        />
      </fieldset>
      <ProblemList problems={otherProblems} labels={{ '/definition/steps': 'Steps', '/steps': 'Steps' }} />
      <h2>Steps</h2>
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
          Add step
        </button>
        <button type="submit" class="primary" disabled={save.busy}>
          Save sequence
        </button>
      </div>
      {shown > 0 && (
        <p class="error" role="alert">
          Not saved: {shown} problem{shown === 1 ? '' : 's'}, shown next to the fields.
        </p>
      )}
      {save.error !== null && problems.length === 0 && <ErrorNote error={save.error} />}
      {saved && (
        <p class="notice" role="status">
          Saved.
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
    () =>
      api<RunRecord[]>('GET', `/api/v1/triggers/new-sequence-triggered?sequence_id=${encodeURIComponent(sequence.id)}`),
    [sequence.id, sequence.enrolments],
  );
  const enrol = async (phone: string) => {
    const record = await action<RunRecord>('trigger-sequence', { sequence_id: sequence.id, phone });
    reload();
    return `Enrolled ${record.contact_phone}.`;
  };
  return (
    <aside class="automation-side" aria-label="Enrolments">
      <h2>Enrolments</h2>
      <StateCounts counts={sequence.enrolments} states={ENROLMENT_STATES} label="Enrolments by state" />
      <ForContactForm label="Enrol a contact" submit="Enrol" run={enrol} />
      <h3>Recent enrolments</h3>
      <ErrorNote error={recent.error} />
      <RunTable records={recent.data ?? []} caption="Recent enrolments" />
    </aside>
  );
}

/** Contacts enrolled or run, newest first. */
export function RunTable({ records, caption }: { records: RunRecord[]; caption: string }) {
  if (records.length === 0) return <p class="muted">None yet.</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Contact</th>
            <th scope="col">State</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {records.slice(0, 20).map((r) => (
            <tr key={r.id}>
              <td>
                <Link href={`/contacts/${r.contact_id}`}>{r.contact_name ?? r.contact_phone}</Link>
              </td>
              <td>{r.status}</td>
              <td>{formatDateTime(r.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
