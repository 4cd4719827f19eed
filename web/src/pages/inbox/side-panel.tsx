import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import { Link } from '../../router';
import { ErrorNote, useAsync } from '../../ui';
import { t } from '../../i18n/i18n';
import { formatDateTime } from '../../i18n/format';
import { OptOutToggle, TagEditor, type Activity, type Contact, type Run } from '../contacts/contact-page';
import type { Thread } from './types';
import { around } from './words';

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
  const contact = useAsync(() => action('get-contact', { contact_id: contactId }), [contactId]);
  const activity = useAsync(
    () => dashboard.get('/api/dashboard/contacts/{id}/activity', { path: { id: contactId } }),
    [contactId, newest],
  );
  const [shown, setShown] = useState<Contact | undefined>();
  useEffect(() => setShown(contact.data), [contact.data]);
  const runs = activity.data;

  return (
    <aside class="side-panel" aria-label={t('inbox:panel.label')}>
      {runs && (
        <AutomationStatus
          flows={runs.flows}
          needsPerson={thread.conversation.needs_person}
          onStopped={activity.reload}
        />
      )}
      <details open={matchMedia(BESIDE_THE_THREAD).matches}>
        <summary>{t('inbox:panel.details')}</summary>
        <ErrorNote error={contact.error ?? activity.error} />
        {shown && <ContactFields contact={shown} />}
        {shown && (
          <section aria-labelledby="panel-tags">
            <h2 id="panel-tags">{t('inbox:panel.tags')}</h2>
            <TagEditor contact={shown} onSaved={setShown} />
          </section>
        )}
        {shown && (
          <section aria-labelledby="panel-marketing">
            <h2 id="panel-marketing">{t('inbox:panel.marketing')}</h2>
            <OptOutToggle contact={shown} onSaved={setShown} />
          </section>
        )}
        {runs && <RunList kind="sequence" runs={runs.sequences} onStopped={activity.reload} />}
        {runs && <RunList kind="flow" runs={runs.flows} onStopped={activity.reload} />}
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
            <Named
              name={run.name}
              sentence={(name) =>
                run.status === 'waiting'
                  ? t('inbox:panel.flowWaiting', { name })
                  : t('inbox:panel.flowRunning', { name })
              }
            />
          </span>
          <StopButton kind="flow" run={run} onStopped={props.onStopped} />
        </p>
      ))}
      {handedOff && (
        <p class="handoff-note">
          <Named
            name={handedOff.name}
            sentence={(name) =>
              handedOff.ended_reason
                ? t('inbox:panel.handedOffWhy', { name, reason: handedOff.ended_reason })
                : t('inbox:panel.handedOff', { name })
            }
          />
        </p>
      )}
    </div>
  );
}

/** A sentence with a flow's name in bold, wherever the language puts the name. */
function Named(props: { name: string; sentence: (name: string) => string }) {
  const [before, after] = around(props.sentence);
  return (
    <>
      {before}
      <strong>{props.name}</strong>
      {after}
    </>
  );
}

function ContactFields({ contact }: { contact: Contact }) {
  const attributes = Object.entries(contact.custom_attributes);
  return (
    <section aria-labelledby="panel-contact">
      <h2 id="panel-contact">{t('inbox:panel.contact')}</h2>
      <dl class="panel-fields">
        <dt>{t('inbox:panel.name')}</dt>
        <dd dir={contact.name ? 'auto' : undefined}>{contact.name ?? '—'}</dd>
        <dt>{t('inbox:panel.phone')}</dt>
        <dd>
          <span dir="ltr">{contact.phone}</span>
        </dd>
        <dt>{t('inbox:panel.email')}</dt>
        <dd>{contact.email ?? '—'}</dd>
        {attributes.map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd dir="auto">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </Fragment>
        ))}
      </dl>
      <Link href={`/contacts/${contact.id}`}>{t('inbox:panel.editContact')}</Link>
    </section>
  );
}

function RunList(props: { kind: 'flow' | 'sequence'; runs: Run[]; onStopped: () => void }) {
  const id = `panel-${props.kind}s`;
  const flows = props.kind === 'flow';
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{flows ? t('inbox:panel.flows') : t('inbox:panel.sequences')}</h2>
      {props.runs.length === 0 ? (
        <p class="muted">{flows ? t('inbox:panel.notInFlows') : t('inbox:panel.notInSequences')}</p>
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
        aria-label={t(props.kind === 'flow' ? 'inbox:panel.stopFlow' : 'inbox:panel.stopSequence', {
          name: props.run.name,
        })}
      >
        {t('inbox:panel.stop')}
      </button>
      <ErrorNote error={error} />
    </>
  );
}

/** A run's state in words: "waiting for a reply", "stopped", "completed 3 Mar, 10:04". */
function statusText(run: Run): string {
  if (run.status === 'waiting' || run.status === 'active') return t(`inbox:panel.run.${run.status}`);
  const time = formatDateTime(run.updated_at);
  if (run.ended_reason === 'stopped') return t('inbox:panel.run.stopped', { time });
  const ended = ENDED.find((status) => status === run.status);
  return ended ? t(`inbox:panel.run.${ended}`, { time }) : t('inbox:panel.run.other', { status: run.status, time });
}

/** How a run ends, besides being stopped (each has its words in the catalog). */
const ENDED = ['completed', 'handed_off', 'failed', 'exited', 'cancelled'] as const;

/** How far a campaign's message got ("delivered 3 Mar, 10:04"). */
function campaignStatus(campaign: Activity['campaigns'][number]): string {
  const time = formatDateTime(campaign.sent_at);
  const known = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
  const status = known.find((candidate) => candidate === campaign.status);
  return status
    ? t(`inbox:panel.campaign.${status}`, { time })
    : t('inbox:panel.campaign.other', { status: campaign.status, time });
}

function CampaignHistory({ campaigns }: { campaigns: Activity['campaigns'] }) {
  return (
    <section aria-labelledby="panel-campaigns">
      <h2 id="panel-campaigns">{t('inbox:panel.campaigns')}</h2>
      {campaigns.length === 0 ? (
        <p class="muted">{t('inbox:panel.noCampaigns')}</p>
      ) : (
        <ul class="panel-runs">
          {campaigns.map((campaign) => (
            <li key={`${campaign.id}-${campaign.sent_at}`}>
              <span>
                {campaign.name} <span class="muted">· {campaignStatus(campaign)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
