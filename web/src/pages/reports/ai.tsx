import { useCallback } from 'preact/hooks';
import { v1, type PublicAnswer } from '../../api/client';
import { formatDay, formatMoney, formatNumber, formatPercent } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, Table, useAsync } from '../../ui';
import { ChartCanvas, chartOptions, look, type BarChart } from './charts';
import { reportUrl, type ReportQueryState } from './report-query';

type AiReport = PublicAnswer<'/v1/reports/ai'>;
type Outcome =
  'handled' | 'answered' | 'resolved_without_person' | 'handed_over' | 'reopened' | 'awaiting_reopen_window';
const OUTCOMES: Outcome[] = [
  'handled',
  'answered',
  'resolved_without_person',
  'handed_over',
  'reopened',
  'awaiting_reopen_window',
];
const RATED = ['ai', 'ai_and_person', 'people'] as const;

/**
 * The Reports page's AI assistant section (GET /api/v1/reports/ai with the page's filter): how the
 * conversations it handled ended, why it handed over, customers' ratings beside people's, and what it cost.
 */
export function AiSection({ query }: { query: ReportQueryState }) {
  const key = JSON.stringify(query);
  const report = useAsync(() => v1.get('/v1/reports/ai', { query }), [key]);
  return (
    <section class="report-section" aria-labelledby="report-ai">
      <div class="section-head">
        <h2 id="report-ai">{t('reports:ai.title')}</h2>
        <a href={reportUrl('ai', query, 'csv')} download>
          {t('reports:download')}
        </a>
      </div>
      <p class="hint">{t('reports:ai.hint')}</p>
      <ErrorNote error={report.error} />
      {report.data && <AiFigures report={report.data} />}
    </section>
  );
}

function AiFigures({ report }: { report: AiReport }) {
  const { conversations } = report;
  const rates: Partial<Record<Outcome, number | null>> = {
    resolved_without_person: conversations.resolution_rate,
    handed_over: conversations.hand_over_rate,
  };
  return (
    <>
      <Table
        caption={t('reports:ai.outcomesCaption')}
        columns={[t('reports:ai.outcome'), t('reports:ai.count'), t('reports:ai.share')]}
      >
        {OUTCOMES.map((outcome) => (
          <tr key={outcome}>
            <th scope="row">{t(`reports:ai.outcomes.${outcome}`)}</th>
            <td>{formatNumber(conversations[outcome])}</td>
            <td>{rates[outcome] == null ? '' : formatPercent(rates[outcome])}</td>
          </tr>
        ))}
      </Table>
      <DaysChart report={report} />
      <Reasons report={report} />
      <Ratings report={report} />
      <Costs report={report} />
    </>
  );
}

/** Per day, by each conversation's first turn: handled, resolved without a person, handed over. */
function DaysChart({ report }: { report: AiReport }) {
  const config = useCallback((): BarChart => {
    const { accent, muted, text } = look();
    const series: [Outcome, string][] = [
      ['handled', text],
      ['resolved_without_person', accent],
      ['handed_over', muted],
    ];
    return {
      type: 'bar',
      data: {
        labels: report.days.map((day) => formatDay(day.day, 'short')),
        datasets: series.map(([outcome, colour]) => ({
          type: 'bar' as const,
          label: t(`reports:ai.outcomes.${outcome}`),
          data: report.days.map((day) => day[outcome]),
          backgroundColor: colour,
        })),
      },
      options: chartOptions({ value: formatNumber, title: (item) => formatDay(report.days[item.dataIndex]!.day) }),
    };
  }, [report]);
  const title = t('reports:ai.daysTitle');
  const { handled, resolved_without_person: resolved, handed_over: handedOver } = report.conversations;
  const summary = t('reports:ai.daysChart', {
    handled: formatNumber(handled),
    resolved: formatNumber(resolved),
    handedOver: formatNumber(handedOver),
  });
  return (
    <figure>
      <figcaption>{title}</figcaption>
      <ChartCanvas config={config} label={`${title}. ${summary}`} />
    </figure>
  );
}

function Reasons({ report }: { report: AiReport }) {
  if (report.hand_over_reasons.length === 0) return null;
  return (
    <Table caption={t('reports:ai.reasonsCaption')} columns={[t('reports:ai.reason'), t('reports:ai.count')]}>
      {report.hand_over_reasons.map((row) => (
        <tr key={row.reason}>
          <th scope="row">{t(`reports:ai.reasons.${row.reason}`, { defaultValue: row.reason })}</th>
          <td>{formatNumber(row.conversations)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Satisfaction of the conversations the assistant handled alone, with a person, and people alone. */
function Ratings({ report }: { report: AiReport }) {
  return (
    <Table
      caption={t('reports:ai.csatCaption')}
      columns={[t('reports:ai.handledBy'), t('reports:ai.ratings'), t('reports:ai.average'), t('reports:ai.satisfied')]}
    >
      {RATED.map((group) => {
        const csat = report.csat[group];
        return (
          <tr key={group}>
            <th scope="row">{t(`reports:ai.rated.${group}`)}</th>
            <td>{formatNumber(csat.ratings)}</td>
            <td>{csat.average === null ? '' : formatNumber(csat.average, { maximumFractionDigits: 1 })}</td>
            <td>{csat.satisfied_share === null ? '' : formatPercent(csat.satisfied_share)}</td>
          </tr>
        );
      })}
    </Table>
  );
}

/** Its turns, their time, its tokens and their cost, and what Meta charged for its messages. */
function Costs({ report }: { report: AiReport }) {
  const { turns, tokens, meta } = report;
  const ms = (value: number | null) => (value === null ? '–' : formatNumber(value));
  return (
    <ul>
      <li>
        {t('reports:ai.turns', {
          count: turns.total,
          replies: formatNumber(turns.replies),
          handOvers: formatNumber(turns.hand_overs),
        })}
      </li>
      <li>
        {t('reports:ai.latency', {
          modelP50: ms(turns.model_ms.p50),
          modelP99: ms(turns.model_ms.p99),
          overheadP50: ms(turns.overhead_ms.p50),
          overheadP99: ms(turns.overhead_ms.p99),
        })}
      </li>
      <li>
        {t('reports:ai.tokens', { prompt: formatNumber(tokens.prompt), completion: formatNumber(tokens.completion) })}
        {tokens.cost !== null &&
          ` ${t('reports:ai.tokenCost', { cost: formatNumber(tokens.cost, { maximumFractionDigits: 4 }) })}`}
      </li>
      <li>{t('reports:ai.meta', { count: meta.messages, amount: formatMoney(meta.cost.amount, meta.currency) })}</li>
    </ul>
  );
}
