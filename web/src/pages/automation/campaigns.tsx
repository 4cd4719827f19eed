import { useEffect, useId, useState } from 'preact/hooks';
import { action, ApiError } from '../../api';
import { Link, navigate } from '../../router';
import { ConfirmButton, ErrorNote, Page, TextField, formatTime, useAsync, useSubmit } from '../../ui';
import {
  problemsOf,
  ProblemList,
  TemplateFields,
  useTemplates,
  type TemplateChoice,
  type TemplateVariables,
} from './common';

interface Counts {
  recipients: number;
  skipped: number;
  opted_out: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
}

interface Campaign {
  id: string;
  name: string;
  status: 'scheduled' | 'sending' | 'sent' | 'cancelled' | 'failed';
  template_name: string | null;
  language: string | null;
  variables: TemplateVariables;
  audience: { tag?: string; contact_ids?: string[]; search?: { query?: string; tag?: string; email?: string } };
  scheduled_at: string | null;
  sent_at: string | null;
  counts: Counts;
  created_at: string;
}

const STATUS_LABELS: Record<Campaign['status'], string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** Messages that have left the outbox, whatever became of them. */
const leftOutbox = (c: Counts) => c.recipients - c.queued;

/** Campaigns: every broadcast, newest first, with its status and counts. */
export function CampaignList() {
  const list = useAsync(() => action<Campaign[]>('list-campaigns', { status: '' }), []);
  return (
    <Page
      title="Campaigns"
      actions={
        <Link class="button primary" href="/campaigns/new">
          New campaign
        </Link>
      }
    >
      <ErrorNote error={list.error} />
      {list.data && list.data.length === 0 && <p>No campaigns yet.</p>}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Campaigns, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Recipients
                </th>
                <th scope="col" class="num">
                  Delivered
                </th>
                <th scope="col" class="num">
                  Read
                </th>
                <th scope="col" class="num">
                  Failed
                </th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
                  </th>
                  <td>
                    <span class={`campaign-status status-${c.status}`}>{STATUS_LABELS[c.status]}</span>
                  </td>
                  <td class="num">{c.counts.recipients}</td>
                  <td class="num">{c.counts.delivered + c.counts.read}</td>
                  <td class="num">{c.counts.read}</td>
                  <td class="num">{c.counts.failed}</td>
                  <td>{formatTime(c.sent_at ?? c.scheduled_at ?? c.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}

type AudienceKind = 'tag' | 'search' | 'phones';

/** A datetime-local value ("2025-06-01T09:30") as ISO 8601 with the viewer's own offset. */
export function localToIso(local: string): string {
  const date = new Date(local);
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.abs(Math.trunc(n))).padStart(2, '0');
  const seconds = local.length === 16 ? ':00' : '';
  return `${local}${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** Each pasted phone as a contact id (get-contact); the phones that are no contact are reported. */
async function resolvePhones(text: string): Promise<string[]> {
  const phones = [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
  if (phones.length === 0) throw new Error('Paste at least one phone number.');
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const phone of phones) {
    try {
      ids.push((await action<{ id: string }>('get-contact', { phone })).id);
    } catch (error) {
      if (error instanceof ApiError && (error.problem.status === 404 || error.problem.status === 400)) {
        unknown.push(phone);
      } else throw error;
    }
  }
  if (unknown.length > 0) throw new Error(`No contact has these phone numbers: ${unknown.join(', ')}`);
  return ids;
}

/** /campaigns/new: template, audience, now or later. */
export function NewCampaign() {
  const id = useId();
  const templates = useTemplates('APPROVED');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState<TemplateChoice>({ template_id: '', language: '', variables: [] });
  const [kind, setKind] = useState<AudienceKind>('tag');
  const [tag, setTag] = useState('');
  const [query, setQuery] = useState('');
  const [phones, setPhones] = useState('');
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');

  const create = useSubmit(async () => {
    const audience =
      kind === 'tag'
        ? { tag }
        : kind === 'search'
          ? { search: { query } }
          : { contact_ids: await resolvePhones(phones) };
    if (when === 'later' && !at) throw new Error('Choose when to send.');
    const campaign = await action<Campaign>('create-campaign', {
      name,
      template_id: template.template_id,
      ...(template.language && { language: template.language }),
      variables: template.variables,
      audience,
      ...(when === 'later' && { scheduled_at: localToIso(at) }),
    });
    navigate(`/campaigns/${campaign.id}`);
  });
  const problems = problemsOf(create.error);
  const invalid = (field: string) => problems.some((p) => p.field === `/${field}` || p.field.startsWith(`/${field}/`));

  return (
    <Page title="New campaign" actions={<Link href="/campaigns">All campaigns</Link>}>
      <form class="automation-editor" onSubmit={create.onSubmit} aria-label="New campaign" noValidate>
        <TextField label="Name" required maxLength={200} value={name} onValue={setName} />
        <fieldset class="group">
          <legend>Message</legend>
          <ErrorNote error={templates.error} />
          {templates.data && templates.data.length === 0 && (
            <p class="warning">
              No approved templates yet: campaigns send approved templates only. See{' '}
              <Link href="/templates">Templates</Link>.
            </p>
          )}
          <TemplateFields
            templates={templates.data ?? []}
            value={template}
            onChange={setTemplate}
            approvedOnly
            invalid={invalid}
          />
          <small class="hint">
            Variables may use {'{{contact.name}}, {{contact.phone}}, {{contact.email}}, {{attributes.KEY}}'}.
          </small>
        </fieldset>
        <fieldset class="group">
          <legend>Audience</legend>
          <div class="radio-row">
            {(
              [
                ['tag', 'Contacts with a tag'],
                ['search', 'Contacts matching a search'],
                ['phones', 'A list of phone numbers'],
              ] as const
            ).map(([value, label]) => (
              <label class="check" key={value}>
                <input
                  type="radio"
                  name={`${id}-audience`}
                  value={value}
                  checked={kind === value}
                  onChange={() => setKind(value)}
                />
                {label}
              </label>
            ))}
          </div>
          {kind === 'tag' && <TextField label="Tag" required value={tag} onValue={setTag} />}
          {kind === 'search' && (
            <TextField
              label="Search"
              value={query}
              onValue={setQuery}
              hint="Part of a name, phone or email; empty sends to every contact."
            />
          )}
          {kind === 'phones' && (
            <div class="field">
              <label for={`${id}-phones`}>Phone numbers</label>
              <textarea
                id={`${id}-phones`}
                value={phones}
                onInput={(e) => setPhones(e.currentTarget.value)}
                aria-describedby={`${id}-phones-hint`}
              />
              <small class="hint" id={`${id}-phones-hint`}>
                One per line (or separated by commas); each must be an existing contact.
              </small>
            </div>
          )}
        </fieldset>
        <fieldset class="group">
          <legend>When</legend>
          <div class="radio-row">
            <label class="check">
              <input type="radio" name={`${id}-when`} checked={when === 'now'} onChange={() => setWhen('now')} />
              Send now
            </label>
            <label class="check">
              <input type="radio" name={`${id}-when`} checked={when === 'later'} onChange={() => setWhen('later')} />
              Schedule
            </label>
          </div>
          {when === 'later' && (
            <TextField
              label="Send at (your local time)"
              type="datetime-local"
              value={at}
              onValue={setAt}
              hint={`Time zone: ${Intl.DateTimeFormat().resolvedOptions().timeZone}`}
            />
          )}
        </fieldset>
        <ProblemList problems={problems} />
        {problems.length === 0 && <ErrorNote error={create.error} />}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={create.busy}>
            {when === 'now' ? 'Send campaign' : 'Schedule campaign'}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** Polls while the campaign is (about to be) sending; stops once it is done. */
function useCampaign(id: string) {
  const campaign = useAsync(() => action<Campaign>('get-campaign', { campaign_id: id }), [id]);
  const data = campaign.data;
  const live =
    data?.status === 'sending' ||
    (data?.status === 'scheduled' && (!data.scheduled_at || Date.parse(data.scheduled_at) <= Date.now() + 60_000));
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(campaign.reload, 2000);
    return () => clearInterval(timer);
  }, [live, campaign.reload]);
  return campaign;
}

const COUNT_LABELS: [keyof Counts, string][] = [
  ['queued', 'Queued'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['read', 'Read'],
  ['failed', 'Failed'],
  ['replied', 'Replied'],
  ['skipped', 'Skipped'],
  ['opted_out', 'Of which opted out'],
];

/** /campaigns/:id: status, a live progress bar, the counts, and cancel. */
export function CampaignPage({ id }: { id: string }) {
  const campaign = useCampaign(id);
  const c = campaign.data;
  const cancel = async () => {
    await action('cancel-campaign', { campaign_id: id });
    campaign.reload();
  };
  return (
    <Page
      title={c?.name ?? 'Campaign'}
      actions={
        <>
          <Link href="/campaigns">All campaigns</Link>
          {c && (c.status === 'scheduled' || c.status === 'sending') && (
            <ConfirmButton
              label="Cancel campaign"
              question={`Cancel “${c.name}”? Messages not yet handed to WhatsApp will not be sent.`}
              confirmLabel="Cancel campaign"
              onConfirm={cancel}
              danger
            />
          )}
        </>
      }
    >
      {campaign.error !== undefined && <ErrorNote error={campaign.error} />}
      {!c && campaign.loading && <p class="loading">Loading…</p>}
      {c && (
        <>
          <dl class="campaign-facts">
            <div>
              <dt>Status</dt>
              <dd>
                <span class={`campaign-status status-${c.status}`} data-testid="campaign-status">
                  {STATUS_LABELS[c.status]}
                </span>
              </dd>
            </div>
            <div>
              <dt>Template</dt>
              <dd>
                {c.template_name ?? '(deleted)'} {c.language && <span class="muted">({c.language})</span>}
              </dd>
            </div>
            <div>
              <dt>Audience</dt>
              <dd>{audienceText(c.audience)}</dd>
            </div>
            <div>
              <dt>{c.scheduled_at ? 'Scheduled for' : 'Created'}</dt>
              <dd>{formatTime(c.scheduled_at ?? c.created_at)}</dd>
            </div>
            {c.sent_at && (
              <div>
                <dt>Finished</dt>
                <dd>{formatTime(c.sent_at)}</dd>
              </div>
            )}
          </dl>
          <section aria-labelledby="progress-title" class="campaign-progress">
            <h2 id="progress-title">Progress</h2>
            <label for="campaign-progress">Messages sent</label>
            <progress id="campaign-progress" max={Math.max(c.counts.recipients, 1)} value={leftOutbox(c.counts)} />
            <p role="status" data-testid="campaign-progress-text">
              {c.status === 'scheduled'
                ? 'Not dispatched yet.'
                : `${leftOutbox(c.counts)} of ${c.counts.recipients} sent`}
            </p>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Results</caption>
                <thead>
                  <tr>
                    {COUNT_LABELS.map(([key, label]) => (
                      <th scope="col" key={key} class="num">
                        {label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    {COUNT_LABELS.map(([key]) => (
                      <td key={key} class="num" data-count={key}>
                        {c.counts[key]}
                      </td>
                    ))}
                  </tr>
                </tbody>
              </table>
            </div>
            <p class="hint">
              Each message counts once, under its latest status (a read message is not also delivered).
            </p>
          </section>
        </>
      )}
    </Page>
  );
}

function audienceText(audience: Campaign['audience']): string {
  if (audience.tag) return `Tagged “${audience.tag}”`;
  if (audience.contact_ids) return `${audience.contact_ids.length} chosen contacts`;
  const query = audience.search?.query;
  return query ? `Contacts matching “${query}”` : 'Every contact';
}
