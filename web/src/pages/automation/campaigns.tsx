import { useEffect } from 'preact/hooks';
import { action } from '../../api/client';
import { Link } from '../../router';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ConfirmButton, ErrorNote, Page, useAsync } from '../../ui';
import type { TemplateVariables } from './common';
import './words';

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

/** A campaign's status (the API's value) in words. */
function statusName(status: Campaign['status']): string {
  switch (status) {
    case 'scheduled':
      return t('automation:campaigns.statuses.scheduled');
    case 'sending':
      return t('automation:campaigns.statuses.sending');
    case 'sent':
      return t('automation:campaigns.statuses.sent');
    case 'cancelled':
      return t('automation:campaigns.statuses.cancelled');
    case 'failed':
      return t('automation:campaigns.statuses.failed');
  }
}

/** Messages that have left the outbox, whatever became of them. */
const leftOutbox = (c: Counts) => c.recipients - c.queued;

/** Campaigns: every broadcast, newest first, with its status and counts. */
export function CampaignList() {
  const list = useAsync(() => action('list-campaigns', { status: '' }), []);
  return (
    <Page
      title={t('automation:campaigns.title')}
      actions={
        <Link class="button primary" href="/campaigns/new">
          {t('automation:campaigns.new')}
        </Link>
      }
    >
      <ErrorNote error={list.error} />
      {list.data && list.data.length === 0 && <p>{t('automation:campaigns.empty')}</p>}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t('automation:campaigns.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('automation:name')}</th>
                <th scope="col">{t('automation:campaigns.status')}</th>
                <th scope="col" class="num">
                  {t('automation:campaigns.recipients')}
                </th>
                <th scope="col" class="num">
                  {t('automation:campaigns.counts.delivered')}
                </th>
                <th scope="col" class="num">
                  {t('automation:campaigns.counts.read')}
                </th>
                <th scope="col" class="num">
                  {t('automation:campaigns.counts.failed')}
                </th>
                <th scope="col">{t('automation:campaigns.when')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
                  </th>
                  <td>
                    <span class={`campaign-status status-${c.status}`}>{statusName(c.status)}</span>
                  </td>
                  <td class="num">{formatNumber(c.counts.recipients)}</td>
                  <td class="num">{formatNumber(c.counts.delivered)}</td>
                  <td class="num">{formatNumber(c.counts.read)}</td>
                  <td class="num">{formatNumber(c.counts.failed)}</td>
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
  const campaign = useAsync(() => action('get-campaign', { campaign_id: id }), [id]);
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

/** The results table's columns: each count and its heading. */
const countLabels = (): [keyof Counts, string][] => [
  ['queued', t('automation:campaigns.counts.queued')],
  ['sent', t('automation:campaigns.counts.sent')],
  ['delivered', t('automation:campaigns.counts.delivered')],
  ['read', t('automation:campaigns.counts.read')],
  ['failed', t('automation:campaigns.counts.failed')],
  ['replied', t('automation:campaigns.counts.replied')],
  ['skipped', t('automation:campaigns.counts.skipped')],
  ['opted_out', t('automation:campaigns.counts.opted_out')],
];

/** /campaigns/:id: status, a live progress bar, the counts, and cancel. */
export function CampaignPage({ id }: { id: string }) {
  const campaign = useCampaign(id);
  const c = campaign.data;
  const columns = countLabels();
  const cancel = async () => {
    await action('cancel-campaign', { campaign_id: id });
    campaign.reload();
  };
  return (
    <Page
      title={c?.name ?? t('automation:campaigns.campaign')}
      actions={
        <>
          <Link href="/campaigns">{t('automation:campaigns.all')}</Link>
          {c && (c.status === 'scheduled' || c.status === 'sending') && (
            <ConfirmButton
              label={t('automation:campaigns.cancel')}
              question={t('automation:campaigns.cancelQuestion', { name: c.name })}
              confirmLabel={t('automation:campaigns.cancel')}
              onConfirm={cancel}
              danger
            />
          )}
        </>
      }
    >
      {campaign.error !== undefined && <ErrorNote error={campaign.error} />}
      {!c && campaign.loading && <p class="loading">{t('automation:loading')}</p>}
      {c && (
        <>
          <dl class="campaign-facts">
            <div>
              <dt>{t('automation:campaigns.status')}</dt>
              <dd>
                <span class={`campaign-status status-${c.status}`} data-testid="campaign-status">
                  {statusName(c.status)}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t('automation:template')}</dt>
              <dd>
                {c.template_name ?? t('automation:campaigns.deletedTemplate')}{' '}
                {c.language && <span class="muted">({c.language})</span>}
              </dd>
            </div>
            <div>
              <dt>{t('automation:campaigns.audience')}</dt>
              <dd>{audienceText(c.audience)}</dd>
            </div>
            <div>
              <dt>{c.scheduled_at ? t('automation:campaigns.scheduledFor') : t('automation:campaigns.created')}</dt>
              <dd>{formatDateTime(c.scheduled_at ?? c.created_at)}</dd>
            </div>
            {c.sent_at && (
              <div>
                <dt>{t('automation:campaigns.finished')}</dt>
                <dd>{formatDateTime(c.sent_at)}</dd>
              </div>
            )}
          </dl>
          <section aria-labelledby="progress-title" class="campaign-progress">
            <h2 id="progress-title">{t('automation:campaigns.progress')}</h2>
            <label for="campaign-progress">{t('automation:campaigns.messagesSent')}</label>
            <progress id="campaign-progress" max={Math.max(c.counts.recipients, 1)} value={leftOutbox(c.counts)} />
            <p role="status" data-testid="campaign-progress-text">
              {c.status === 'scheduled'
                ? t('automation:campaigns.notDispatched')
                : t('automation:campaigns.sentOf', {
                    sent: formatNumber(leftOutbox(c.counts)),
                    total: formatNumber(c.counts.recipients),
                  })}
            </p>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">{t('automation:campaigns.results')}</caption>
                <thead>
                  <tr>
                    {columns.map(([key, label]) => (
                      <th scope="col" key={key} class="num">
                        {label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    {columns.map(([key]) => (
                      <td key={key} class="num" data-count={key}>
                        {formatNumber(c.counts[key])}
                      </td>
                    ))}
                  </tr>
                </tbody>
              </table>
            </div>
            <p class="hint">{t('automation:campaigns.readHint')}</p>
          </section>
        </>
      )}
    </Page>
  );
}

function audienceText(audience: Campaign['audience']): string {
  if (audience.tag) return t('automation:campaigns.audienceTag', { tag: audience.tag });
  if (audience.contact_ids) return t('automation:campaigns.audienceChosen', { count: audience.contact_ids.length });
  const query = audience.search?.query;
  return query ? t('automation:campaigns.audienceSearch', { query }) : t('automation:campaigns.audienceEveryone');
}
