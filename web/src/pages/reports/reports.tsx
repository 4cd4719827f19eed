import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Report, Spread } from '../../../../src/reports/report.types';
import { dashboard } from '../../api';
import { navigate } from '../../router';
import { ErrorNote, Page, Table, TextField, useAsync } from '../../ui';
import { MessageRatesForm } from './rates';
import { formatDateTime } from '../../i18n/format';
import { addEnglish } from '../../i18n/i18n';
import campaignReport from '../../locales/en/campaign-report.json';
import reports from '../../locales/en/reports.json';
import teamReport from '../../locales/en/team-report.json';

// The Reports page's words come with it (before it renders).
addEnglish({ reports, 'campaign-report': campaignReport, 'team-report': teamReport });

import { TeamFigures } from './team-figures';

import { CampaignOutcomes } from './campaign-outcomes';

/** Reports: how the team and the campaigns did over a date range, each table downloadable as CSV. */
export function ReportsPage({ from, to }: { from: string; to: string }) {
  const query = new URLSearchParams({ ...(from && { from }), ...(to && { to }) }).toString();
  const report = useAsync(() => dashboard.get<Report>(`reports${query && `?${query}`}`), [query]);
  const data = report.data;
  return (
    <Page title="Reports">
      {/* Keyed by the range shown, so the fields fill in once the server has resolved the default range. */}
      <RangeForm
        key={`${data?.range.from}/${data?.range.to}`}
        from={data?.range.from ?? from}
        to={data?.range.to ?? to}
      />
      <ErrorNote error={report.error} />
      <TeamFigures query={{ ...(from && { from }), ...(to && { to }) }} />
      {data && (
        <>
          <p class="muted">
            {data.range.from} to {data.range.to}, days in the workspace's time zone ({data.range.time_zone}).
          </p>
          <ConversationsTable report={data} />
          <ResponseTimesTable report={data} />
          <SatisfactionTable report={data} />
          <MessagesTable report={data} />
          <CampaignsTable report={data} />
          <CampaignOutcomes query={{ from: data.range.from, to: data.range.to }} />
          <CostsTable report={data} onRatesSaved={report.reload} />
        </>
      )}
    </Page>
  );
}

/** The date range; choosing one changes the address, so Back and shared links keep it. */
function RangeForm(props: { from: string; to: string }) {
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  const show = (event: Event) => {
    event.preventDefault();
    navigate(`/reports?${new URLSearchParams({ from, to }).toString()}`);
  };
  return (
    <form class="inline-form report-range" aria-label="Date range" onSubmit={show}>
      <TextField label="From" type="date" value={from} onValue={setFrom} required />
      <TextField label="To" type="date" value={to} onValue={setTo} required />
      <button type="submit" class="primary">
        Show
      </button>
    </form>
  );
}

/** A report section: its heading, its table's CSV download, and the table. */
function Section(props: { title: string; table: string; report: Report; children: ComponentChildren }) {
  const { from, to } = props.report.range;
  const href = `/api/dashboard/reports/${props.table}.csv?${new URLSearchParams({ from, to }).toString()}`;
  return (
    <section class={`report-section report-${props.table}`} aria-labelledby={`report-${props.table}`}>
      <header class="report-section-header">
        <h2 id={`report-${props.table}`}>{props.title}</h2>
        <a class="button" href={href} download>
          Download CSV<span class="visually-hidden"> of {props.title.toLowerCase()}</span>
        </a>
      </header>
      {props.children}
    </section>
  );
}

function ConversationsTable({ report }: { report: Report }) {
  const most = Math.max(1, ...report.conversations.map((day) => Math.max(day.opened, day.closed)));
  const bar = (count: number, kind: string) => (
    <span class="report-count">
      <span class={`report-bar ${kind}`} style={{ width: `${(count / most) * 100}%` }} aria-hidden="true" />
      {count}
    </span>
  );
  return (
    <Section title="Conversations per day" table="conversations" report={report}>
      <p>
        {total(report.conversations, 'opened')} opened, {total(report.conversations, 'closed')} closed.
      </p>
      <Table caption="Conversations opened and closed per day" columns={['Day', 'Opened', 'Closed']}>
        {report.conversations.map((day) => (
          <tr key={day.day}>
            <td>{day.day}</td>
            <td>{bar(day.opened, 'opened')}</td>
            <td>{bar(day.closed, 'closed')}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

const total = (days: Report['conversations'], key: 'opened' | 'closed') => days.reduce((n, day) => n + day[key], 0);

function ResponseTimesTable({ report }: { report: Report }) {
  return (
    <Section title="Response times" table="response-times" report={report}>
      <p class="hint">
        Of the conversations closed in the range. First response: from the customer's message that opened the
        conversation to the first reply by a person or the API (automations and campaigns do not count); it counts for
        the person who replied. Resolution: to "Mark done"; it counts for the assignee, else for whoever marked it done.
      </p>
      <Table
        caption="First-response and resolution times"
        columns={[
          'Agent',
          'Closed',
          'Answered first',
          'First response (median)',
          'First response (p90)',
          'Resolution (median)',
          'Resolution (p90)',
        ]}
      >
        {report.response_times.map((row) => (
          <tr key={row.agent?.id ?? 'everyone'} class={row.agent ? '' : 'report-total'}>
            <td>{row.agent?.name ?? 'Everyone'}</td>
            <td>{row.conversations}</td>
            <td>{row.answered}</td>
            <SpreadCells spread={row.first_response} />
            <SpreadCells spread={row.resolution} />
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function SatisfactionTable({ report }: { report: Report }) {
  return (
    <Section title="Satisfaction" table="satisfaction" report={report}>
      <p class="hint">
        Ratings (1 to 5) customers gave in the range, answering the survey sent when a conversation was closed (Settings
        → Business hours); each counts for the agent the conversation counted for.
      </p>
      <Table caption="Satisfaction ratings" columns={['Agent', 'Ratings', 'Average rating']}>
        {report.satisfaction.map((row) => (
          <tr key={row.agent?.id ?? 'everyone'} class={row.agent ? '' : 'report-total'}>
            <td>{row.agent?.name ?? 'Everyone'}</td>
            <td>{row.ratings}</td>
            <td>{row.average === null ? '—' : `${row.average.toFixed(1)} / 5`}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

function SpreadCells({ spread }: { spread: Spread }) {
  return (
    <>
      <td>{duration(spread.median_seconds)}</td>
      <td>{duration(spread.p90_seconds)}</td>
    </>
  );
}

/** Seconds as people say them: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return hours % 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${Math.floor(hours / 24)} d`;
}

const STATUS_WORDS: Record<string, string> = {
  received: 'Received',
  queued: 'Waiting to send',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
};

function MessagesTable({ report }: { report: Report }) {
  return (
    <Section title="Messages by status" table="messages" report={report}>
      {report.messages.length === 0 ? (
        <p role="status">No messages in this range.</p>
      ) : (
        <Table caption="Messages by direction and status" columns={['Direction', 'Status', 'Messages']}>
          {report.messages.map((row) => (
            <tr key={`${row.direction} ${row.status}`}>
              <td>{row.direction === 'inbound' ? 'From customers' : 'To customers'}</td>
              <td>{STATUS_WORDS[row.status] ?? row.status}</td>
              <td>{row.count}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function CampaignsTable({ report }: { report: Report }) {
  const money = moneyIn(report.costs.currency);
  return (
    <Section title="Campaigns" table="campaigns" report={report}>
      {report.campaigns.length === 0 ? (
        <p role="status">No campaign was sent in this range.</p>
      ) : (
        <Table
          caption="Campaigns sent in the range"
          columns={['Campaign', 'Sent', 'Delivered', 'Read', 'Replied', 'Failed', 'Why they failed', 'Cost']}
        >
          {report.campaigns.map((row) => (
            <tr key={row.id}>
              <td>
                {row.name}
                <br />
                <small class="muted">{formatDateTime(row.sent_at)}</small>
              </td>
              <td>{row.sent}</td>
              <td>{row.delivered}</td>
              <td>{row.read}</td>
              <td>{row.replied}</td>
              <td>{row.failed}</td>
              <td>
                {row.failure_reasons.length === 0
                  ? '—'
                  : row.failure_reasons.map((reason) => (
                      <div key={reason.code ?? reason.title}>
                        {reason.count} × {reason.reason}
                      </div>
                    ))}
              </td>
              <td>{money(row.cost)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function CostsTable({ report, onRatesSaved }: { report: Report; onRatesSaved: () => void }) {
  const money = moneyIn(report.costs.currency);
  return (
    <Section title="Cost" table="costs" report={report}>
      <p class="hint">
        Meta's status webhooks say for each message whether it is billable and its pricing category; the cost is that
        count times the rate you enter below (from Meta's rate card for your customers' country).
      </p>
      <Table
        caption="Billable messages and cost by category"
        columns={['Category', 'Billable messages', 'Rate', 'Cost']}
      >
        {report.costs.categories.map((row) => (
          <tr key={row.category}>
            <td>{row.category}</td>
            <td>{row.billable}</td>
            <td>{row.rate === null ? 'No rate entered' : money(row.rate)}</td>
            <td>{row.cost === null ? '—' : money(row.cost)}</td>
          </tr>
        ))}
        <tr class="report-total">
          <td>Total</td>
          <td>{report.costs.categories.reduce((n, row) => n + row.billable, 0)}</td>
          <td />
          <td>{money(report.costs.total)}</td>
        </tr>
      </Table>
      <MessageRatesForm onSaved={onRatesSaved} />
    </Section>
  );
}

/** Amounts in the currency, to the fraction of a cent Meta's rates use. */
function moneyIn(currency: string) {
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 });
  return (amount: number) => format.format(amount);
}
