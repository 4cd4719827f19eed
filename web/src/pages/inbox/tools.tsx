import { useState } from 'preact/hooks';
import { dashboard, type DashboardOptions } from '../../api/client';
import { ErrorNote, useAsync } from '../../ui';
import { t } from '../../i18n/i18n';
import { formatDateTime } from '../../i18n/format';
import type { Member, Priority, ToolsState } from './types';

/** The priorities, lowest first. */
export const PRIORITIES: Priority[] = ['none', 'low', 'medium', 'high', 'urgent'];

/** A priority's name in the person's language ("No priority", "Urgent"). */
export const priorityName = (priority: Priority): string => t(`inbox:tools.priorities.${priority}`);

/** The workspace's labels, loaded once per page. */
export const useLabels = () => useAsync(() => dashboard.get('/api/dashboard/conversation-labels'), []);

/** A conversation's labels and priority as small badges (the list and the thread). */
export function ToolBadges({ state }: { state: ToolsState }) {
  return (
    <>
      {state.priority !== 'none' && (
        <span class={`badge priority-${state.priority}`}>{t(`inbox:tools.priorityBadge.${state.priority}`)}</span>
      )}
      {state.status === 'snoozed' && (
        <span class="badge">
          {state.snoozed_until
            ? t('inbox:tools.snoozedUntil', { time: formatDateTime(state.snoozed_until) })
            : t('inbox:tools.snoozedUntilReply')}
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
/** How long a snooze lasts, by its name in the catalog (`reply`: until the customer writes). */
const SNOOZES = [
  { value: 'reply', name: 'reply' },
  { value: String(HOUR), name: 'hour' },
  { value: String(24 * HOUR), name: 'tomorrow' },
  { value: String(7 * 24 * HOUR), name: 'week' },
] as const;

/** The thread's tools: priority, labels, snooze. */
export function ThreadTools(props: { contactId: string; state: ToolsState; onChange: () => void }) {
  const labels = useLabels();
  const [error, setError] = useState<unknown>(null);
  const path = { contactId: props.contactId };
  const run = (change: Promise<unknown>) => {
    setError(null);
    change.then(props.onChange, setError);
  };
  const has = new Set(props.state.labels.map((l) => l.name));
  const toggle = (name: string) =>
    run(
      dashboard.post('/api/dashboard/conversations/{contactId}/labels', {
        path,
        body: { labels: has.has(name) ? [...has].filter((n) => n !== name) : [...has, name] },
      }),
    );
  return (
    <div class="thread-tools">
      <div class="field">
        <label for="priority">{t('inbox:tools.priority')}</label>
        <select
          id="priority"
          value={props.state.priority}
          onChange={(e) => {
            const priority = PRIORITIES.find((p) => p === e.currentTarget.value) ?? 'none';
            run(dashboard.post('/api/dashboard/conversations/{contactId}/priority', { path, body: { priority } }));
          }}
        >
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {priorityName(p)}
            </option>
          ))}
        </select>
      </div>
      {props.state.status === 'snoozed' ? (
        <button
          type="button"
          onClick={() => run(dashboard.post('/api/dashboard/conversations/{contactId}/unsnooze', { path }))}
        >
          {t('inbox:tools.endSnooze')}
        </button>
      ) : (
        <div class="field">
          <label for="snooze">{t('inbox:tools.snooze')}</label>
          <select
            id="snooze"
            value=""
            onChange={(e) => {
              const choice = e.currentTarget.value;
              if (!choice) return;
              const until = choice === 'reply' ? null : new Date(Date.now() + Number(choice)).toISOString();
              run(dashboard.post('/api/dashboard/conversations/{contactId}/snooze', { path, body: { until } }));
            }}
          >
            <option value="">{t('inbox:tools.notSnoozed')}</option>
            {SNOOZES.map((s) => (
              <option key={s.value} value={s.value}>
                {t(`inbox:tools.snoozes.${s.name}`)}
              </option>
            ))}
          </select>
        </div>
      )}
      {(labels.data ?? []).length > 0 && (
        <fieldset class="label-choices">
          <legend>{t('inbox:tools.labels')}</legend>
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

type BulkBody = DashboardOptions<'/api/dashboard/conversations/bulk', 'post'>['body'];
/** The list's filter, as a bulk action over every conversation it matches takes it. */
export type BulkFilter = NonNullable<BulkBody['filter']>;

/** What a bulk action goes to: the ticked conversations, or every one the list's filter matches. */
export type Selection = { all: false; ids: string[] } | { all: true };

/** What a bulk action did, as the catalog words it ("Closed 3 of 3 conversations."). */
type BulkOutcome = 'closed' | 'reopened' | 'assigned' | 'labelled';

/** The bar over a list with conversations ticked: close, reopen, assign or label them at once. */
export function BulkBar(props: {
  selection: Selection;
  shown: number;
  filter: BulkFilter;
  members: Member[];
  onSelectAll: () => void;
  onDone: (message: string) => void;
}) {
  const labels = useLabels();
  const [error, setError] = useState<unknown>(null);
  const { selection } = props;
  const count = selection.all ? t('inbox:bulk.allMatching') : t('inbox:bulk.selected', { count: selection.ids.length });
  const run = (change: Omit<BulkBody, 'filter' | 'contact_ids'>, done: BulkOutcome) => {
    setError(null);
    const target = selection.all ? { filter: props.filter } : { contact_ids: selection.ids };
    dashboard
      .post('/api/dashboard/conversations/bulk', { body: { ...target, ...change } })
      .then(({ changed, matched }) => props.onDone(t(`inbox:bulk.${done}`, { changed, count: matched })), setError);
  };
  // The bulk action's fields as people see them: "The person chosen is not a member of the team Sales…".
  const fieldLabels = { user_id: t('inbox:bulk.personChosen'), label: t('inbox:bulk.theLabel') };
  return (
    <div class="bulk-bar" role="region" aria-label={t('inbox:bulk.region')}>
      <strong>{count}</strong>
      {!selection.all && (
        <button type="button" class="link" onClick={props.onSelectAll}>
          {t('inbox:bulk.selectAll')}
        </button>
      )}
      <button type="button" onClick={() => run({ action: 'close' }, 'closed')}>
        {t('inbox:bulk.close')}
      </button>
      <button type="button" onClick={() => run({ action: 'reopen' }, 'reopened')}>
        {t('inbox:bulk.reopen')}
      </button>
      <label for="bulk-assign">{t('inbox:bulk.assignTo')}</label>
      <select
        id="bulk-assign"
        value=""
        onChange={(e) => {
          const value = e.currentTarget.value;
          if (value) run({ action: 'assign', user_id: value === 'nobody' ? null : value }, 'assigned');
        }}
      >
        <option value="">{t('inbox:bulk.choose')}</option>
        <option value="nobody">{t('inbox:nobody')}</option>
        {props.members.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name || m.email}
          </option>
        ))}
      </select>
      <label for="bulk-label">{t('inbox:bulk.addLabel')}</label>
      <select
        id="bulk-label"
        value=""
        onChange={(e) => e.currentTarget.value && run({ action: 'label', label: e.currentTarget.value }, 'labelled')}
      >
        <option value="">{t('inbox:bulk.choose')}</option>
        {(labels.data ?? []).map((l) => (
          <option key={l.id} value={l.name}>
            {l.name}
          </option>
        ))}
      </select>
      <ErrorNote error={error} labels={fieldLabels} />
    </div>
  );
}
