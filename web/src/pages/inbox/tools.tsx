import { useState } from 'preact/hooks';
import { dashboard } from '../../api';
import { ErrorNote, useAsync } from '../../ui';
import type { Label, Member, Priority, ToolsState } from './types';
import { formatDateTime } from '../../i18n/format';

export const PRIORITIES: { value: Priority; label: string }[] = [
  { value: 'none', label: 'No priority' },
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
  { value: 'urgent', label: 'Urgent' },
];

/** The workspace's labels, loaded once per page. */
export const useLabels = () => useAsync(() => dashboard.get<Label[]>('conversation-labels'), []);

/** A conversation's labels and priority as small badges (the list and the thread). */
export function ToolBadges({ state }: { state: ToolsState }) {
  const priority = PRIORITIES.find((p) => p.value === state.priority);
  return (
    <>
      {state.priority !== 'none' && <span class={`badge priority-${state.priority}`}>{priority?.label} priority</span>}
      {state.status === 'snoozed' && (
        <span class="badge">
          {state.snoozed_until ? `Snoozed until ${formatDateTime(state.snoozed_until)}` : 'Snoozed until they reply'}
        </span>
      )}
      {state.labels.map((label) => (
        <span key={label.id} class="badge label-badge" style={{ borderColor: label.colour }}>
          <span class="label-dot" style={{ background: label.colour }} aria-hidden="true" />
          {label.name}
        </span>
      ))}
    </>
  );
}

const HOUR = 3_600_000;
const SNOOZES = [
  { value: 'reply', label: 'Until they reply' },
  { value: String(HOUR), label: 'For an hour' },
  { value: String(24 * HOUR), label: 'Until tomorrow' },
  { value: String(7 * 24 * HOUR), label: 'For a week' },
];

/** The thread's tools: priority, labels, snooze. */
export function ThreadTools(props: { contactId: string; state: ToolsState; onChange: () => void }) {
  const labels = useLabels();
  const [error, setError] = useState<unknown>(null);
  const run = (path: string, body: object) => {
    setError(null);
    dashboard.post(`conversations/${props.contactId}/${path}`, body).then(props.onChange, setError);
  };
  const has = new Set(props.state.labels.map((l) => l.name));
  const toggle = (name: string) =>
    run('labels', { labels: has.has(name) ? [...has].filter((n) => n !== name) : [...has, name] });
  return (
    <div class="thread-tools">
      <div class="field">
        <label for="priority">Priority</label>
        <select
          id="priority"
          value={props.state.priority}
          onChange={(e) => run('priority', { priority: e.currentTarget.value })}
        >
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {props.state.status === 'snoozed' ? (
        <button type="button" onClick={() => run('unsnooze', {})}>
          End snooze
        </button>
      ) : (
        <div class="field">
          <label for="snooze">Snooze</label>
          <select
            id="snooze"
            value=""
            onChange={(e) => {
              const choice = e.currentTarget.value;
              if (!choice) return;
              run('snooze', { until: choice === 'reply' ? null : new Date(Date.now() + Number(choice)).toISOString() });
            }}
          >
            <option value="">Not snoozed</option>
            {SNOOZES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {(labels.data ?? []).length > 0 && (
        <fieldset class="label-choices">
          <legend>Labels</legend>
          {labels.data!.map((label) => (
            <label key={label.id} class="checkbox">
              <input type="checkbox" checked={has.has(label.name)} onChange={() => toggle(label.name)} />
              {label.name}
            </label>
          ))}
        </fieldset>
      )}
      <ErrorNote error={error ?? labels.error} />
    </div>
  );
}

/** What a bulk action goes to: the ticked conversations, or every one the list's filter matches. */
export type Selection = { all: false; ids: string[] } | { all: true };

/** The bulk action's fields as people see them: "The person chosen is not a member of the team Sales…". */
const BULK_LABELS = { user_id: 'The person chosen', label: 'The label' };

/** The bar over a list with conversations ticked: close, reopen, assign or label them at once. */
export function BulkBar(props: {
  selection: Selection;
  shown: number;
  filter: Record<string, string | undefined>;
  members: Member[];
  onSelectAll: () => void;
  onDone: (message: string) => void;
}) {
  const labels = useLabels();
  const [error, setError] = useState<unknown>(null);
  const { selection } = props;
  const count = selection.all ? 'All matching' : `${selection.ids.length} selected`;
  const run = (body: object, verb: string) => {
    setError(null);
    const target = selection.all ? { filter: props.filter } : { contact_ids: selection.ids };
    dashboard
      .post<{ matched: number; changed: number }>('conversations/bulk', { ...target, ...body })
      .then((result) => props.onDone(`${verb} ${result.changed} of ${result.matched} conversations.`), setError);
  };
  return (
    <div class="bulk-bar" role="region" aria-label="Bulk actions">
      <strong>{count}</strong>
      {!selection.all && (
        <button type="button" class="link" onClick={props.onSelectAll}>
          Select all conversations matching this filter
        </button>
      )}
      <button type="button" onClick={() => run({ action: 'close' }, 'Closed')}>
        Close
      </button>
      <button type="button" onClick={() => run({ action: 'reopen' }, 'Reopened')}>
        Reopen
      </button>
      <label for="bulk-assign">Assign to</label>
      <select
        id="bulk-assign"
        value=""
        onChange={(e) => {
          const value = e.currentTarget.value;
          if (value) run({ action: 'assign', user_id: value === 'nobody' ? null : value }, 'Assigned');
        }}
      >
        <option value="">Choose…</option>
        <option value="nobody">Nobody</option>
        {props.members.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name || m.email}
          </option>
        ))}
      </select>
      <label for="bulk-label">Add label</label>
      <select
        id="bulk-label"
        value=""
        onChange={(e) => e.currentTarget.value && run({ action: 'label', label: e.currentTarget.value }, 'Labelled')}
      >
        <option value="">Choose…</option>
        {(labels.data ?? []).map((l) => (
          <option key={l.id} value={l.name}>
            {l.name}
          </option>
        ))}
      </select>
      <ErrorNote error={error} labels={BULK_LABELS} />
    </div>
  );
}
