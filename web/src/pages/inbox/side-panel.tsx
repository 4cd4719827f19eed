import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api';
import { Link } from '../../router';
import { ErrorNote, useAsync } from '../../ui';
import { OptOutToggle, TagEditor, type Activity, type Run } from '../contacts/contact-page';
import type { Contact } from '../contacts/contacts-list';
import type { Thread } from './types';
import { formatDateTime } from '../../i18n/format';

/** Wide enough for the panel to sit beside the messages (styles.css uses the same width). */
const BESIDE_THE_THREAD = '(min-width: 1100px)';
const RUNNING = ['active', 'waiting'];

/**
 * Beside a conversation: what automation is doing with the customer (a flow waiting on them, the
 * hand-off note), then the contact — fields, tags, opt-out, sequences and flows (stoppable) and
 * the campaigns that messaged them. Reloads with the thread, so a reply that moves a flow shows.
 */
export function SidePanel({ thread }: { thread: Thread }) {
  const contactId = thread.contact.id;
  const newest = thread.messages.at(-1)?.id;
  const contact = useAsync(() => action<Contact>('get-contact', { contact_id: contactId }), [contactId]);
  const activity = useAsync(() => dashboard.get<Activity>(`contacts/${contactId}/activity`), [contactId, newest]);
  const [shown, setShown] = useState<Contact | undefined>();
  useEffect(() => setShown(contact.data), [contact.data]);
  const runs = activity.data;

  return (
    <aside class="side-panel" aria-label="Contact and automation">
      {runs && (
        <AutomationStatus
          flows={runs.flows}
          needsPerson={thread.conversation.needs_person}
          onStopped={activity.reload}
        />
      )}
      <details open={matchMedia(BESIDE_THE_THREAD).matches}>
        <summary>Contact details</summary>
        <ErrorNote error={contact.error ?? activity.error} />
        {shown && <ContactFields contact={shown} />}
        {shown && (
          <section aria-labelledby="panel-tags">
            <h2 id="panel-tags">Tags</h2>
            <TagEditor contact={shown} onSaved={setShown} />
          </section>
        )}
        {shown && (
          <section aria-labelledby="panel-marketing">
            <h2 id="panel-marketing">Marketing</h2>
            <OptOutToggle contact={shown} onSaved={setShown} />
          </section>
        )}
        {runs && <RunList title="Sequences" kind="sequence" runs={runs.sequences} onStopped={activity.reload} />}
        {runs && <RunList title="Flows" kind="flow" runs={runs.flows} onStopped={activity.reload} />}
        {runs && <CampaignHistory campaigns={runs.campaigns} />}
      </details>
    </aside>
  );
}

/** Always in view, even with the details folded: a flow waiting on the customer, and why a person was asked for. */
function AutomationStatus(props: { flows: Run[]; needsPerson: boolean; onStopped: () => void }) {
  const waiting = props.flows.filter((run) => RUNNING.includes(run.status));
  const handedOff = props.needsPerson ? props.flows.find((run) => run.status === 'handed_off') : undefined;
  if (waiting.length === 0 && !handedOff) return null;
  return (
    <div class="automation-status" role="status">
      {waiting.map((run) => (
        <p key={run.id} class="flow-waiting">
          <span>
            Flow <strong>{run.name}</strong>{' '}
            {run.status === 'waiting' ? 'is waiting for the customer’s reply.' : 'is running.'}
          </span>
          <StopButton kind="flow" run={run} onStopped={props.onStopped} />
        </p>
      ))}
      {handedOff && (
        <p class="handoff-note">
          Flow <strong>{handedOff.name}</strong> handed this conversation to a person
          {handedOff.ended_reason ? <>: “{handedOff.ended_reason}”</> : '.'}
        </p>
      )}
    </div>
  );
}

function ContactFields({ contact }: { contact: Contact }) {
  const attributes = Object.entries(contact.custom_attributes);
  return (
    <section aria-labelledby="panel-contact">
      <h2 id="panel-contact">Contact</h2>
      <dl class="panel-fields">
        <dt>Name</dt>
        <dd>{contact.name ?? '—'}</dd>
        <dt>Phone</dt>
        <dd>{contact.phone}</dd>
        <dt>Email</dt>
        <dd>{contact.email ?? '—'}</dd>
        {attributes.map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </Fragment>
        ))}
      </dl>
      <Link href={`/contacts/${contact.id}`}>Edit the contact</Link>
    </section>
  );
}

function RunList(props: { title: string; kind: 'flow' | 'sequence'; runs: Run[]; onStopped: () => void }) {
  const id = `panel-${props.kind}s`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.runs.length === 0 ? (
        <p class="muted">Not in any {props.title.toLowerCase()}.</p>
      ) : (
        <ul class="panel-runs">
          {props.runs.map((run) => (
            <li key={run.id}>
              <span>
                {run.name} <span class="muted">· {statusText(run)}</span>
              </span>
              {RUNNING.includes(run.status) && <StopButton kind={props.kind} run={run} onStopped={props.onStopped} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Ends a running flow or sequence for this contact (stop-flow-run / stop-sequence-enrolment). */
function StopButton(props: { kind: 'flow' | 'sequence'; run: Run; onStopped: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const stop = async () => {
    setBusy(true);
    setError(null);
    try {
      if (props.kind === 'flow') await action('stop-flow-run', { run_id: props.run.id });
      else await action('stop-sequence-enrolment', { enrolment_id: props.run.id });
      props.onStopped();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => void stop()}
        aria-label={`Stop ${props.kind} ${props.run.name}`}
      >
        Stop
      </button>
      <ErrorNote error={error} />
    </>
  );
}

/** A run's state in words: "waiting for a reply", "stopped", "completed 3 Mar, 10:04". */
function statusText(run: Run): string {
  if (run.status === 'waiting') return 'waiting for a reply';
  if (run.status === 'active') return 'running';
  if (run.ended_reason === 'stopped') return `stopped ${formatDateTime(run.updated_at)}`;
  return `${run.status.replace('_', ' ')} ${formatDateTime(run.updated_at)}`;
}

function CampaignHistory({ campaigns }: { campaigns: Activity['campaigns'] }) {
  return (
    <section aria-labelledby="panel-campaigns">
      <h2 id="panel-campaigns">Campaigns</h2>
      {campaigns.length === 0 ? (
        <p class="muted">No campaign messaged this contact.</p>
      ) : (
        <ul class="panel-runs">
          {campaigns.map((campaign) => (
            <li key={`${campaign.id}-${campaign.sent_at}`}>
              <span>
                {campaign.name}{' '}
                <span class="muted">
                  · {campaign.status} {formatDateTime(campaign.sent_at)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
