import { useEffect } from 'preact/hooks';
import { action } from '../../api';
import { Link } from '../../router';
import { ConfirmButton, ErrorNote, Page, useAsync } from '../../ui';
import type { TemplateVariables } from './common';
import { formatDateTime } from '../../i18n/format';

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

export interface Campaign {
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
                  <td class="num">{c.counts.delivered}</td>
                  <td class="num">{c.counts.read}</td>
                  <td class="num">{c.counts.failed}</td>
                  <td>{formatDateTime(c.sent_at ?? c.scheduled_at ?? c.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
              <dd>{formatDateTime(c.scheduled_at ?? c.created_at)}</dd>
            </div>
            {c.sent_at && (
              <div>
                <dt>Finished</dt>
                <dd>{formatDateTime(c.sent_at)}</dd>
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
            <p class="hint">A read message was delivered and sent too, so it counts in each of them.</p>
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
