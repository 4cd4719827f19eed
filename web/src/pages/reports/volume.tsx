import { useCallback, useId } from 'preact/hooks';
import { v1 } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { formatDay, formatNumber, formatPercent, formatWeekday } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, Table, useAsync } from '../../ui';
import { reportUrl, type ReportQueryState } from './report-query';
import { ChartCanvas } from './charts';
import { dayChart, hourChart } from './volume-charts';

type VolumeReport = PublicSchema<'VolumeReport'>;

const MEASURES = ['conversations_opened', 'conversations_closed', 'messages_received', 'messages_sent'] as const;
/** The week as the hour table lists it: Monday first, Sunday last. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** Volume: the range's totals against the previous period, then per day and per hour of the week, each a chart and its table. */
export function VolumeSection({ query }: { query: ReportQueryState }) {
  const report = useAsync(() => v1.get('/v1/reports/volume', { query }), [reportUrl('volume', query)]);
  const data = report.data;
  return (
    <section class="report-section report-volume" aria-labelledby="report-volume" aria-busy={report.loading}>
      <h2 id="report-volume">{t('reports:volume.title')}</h2>
      <ErrorNote error={report.error} />
      {data && (
        <>
          <p class="muted">
            {t('reports:range', {
              from: formatDay(data.range.from),
              to: formatDay(data.range.to),
              zone: data.range.time_zone,
              previousFrom: formatDay(data.range.previous_from),
              previousTo: formatDay(data.range.previous_to),
            })}
          </p>
          <p class="hint">{t('reports:volume.hint')}</p>
          <Totals report={data} />
          <PerDay report={data} query={query} />
          <PerHour report={data} query={query} />
        </>
      )}
    </section>
  );
}

function Totals({ report }: { report: VolumeReport }) {
  return (
    <dl class="report-totals">
      {MEASURES.map((measure) => {
        const total = report.totals[measure];
        return (
          <div key={measure}>
            <dt>{t(`reports:volume.measures.${measure}`)}</dt>
            <dd class="report-total-figure">{formatNumber(total.current)}</dd>
            <dd class="muted">{changeWords(total)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function changeWords(total: VolumeReport['totals']['messages_sent']): string {
  if (total.change_ratio === null) return t('reports:volume.noneBefore');
  if (total.change === 0) return t('reports:volume.same');
  const percent = formatPercent(Math.abs(total.change_ratio));
  return total.change > 0 ? t('reports:volume.more', { percent }) : t('reports:volume.fewer', { percent });
}

function Download({ href, label }: { href: string; label: string }) {
  return (
    <a class="button" href={href} download aria-label={label}>
      {t('reports:download')}
    </a>
  );
}

function PerDay({ report, query }: { report: VolumeReport; query: ReportQueryState }) {
  const config = useCallback(() => dayChart(report), [report]);
  const sum = (measure: (typeof MEASURES)[number]) => report.totals[measure].current;
  const label = t('reports:volume.days.chart', {
    from: formatDay(report.range.from),
    to: formatDay(report.range.to),
    received: formatNumber(sum('messages_received')),
    sent: formatNumber(sum('messages_sent')),
    previous: formatNumber(report.totals.messages_received.previous),
  });
  return (
    <div class="report-part">
      <header class="report-section-header">
        <h3>{t('reports:volume.days.title')}</h3>
        <Download href={reportUrl('volume', query, 'csv')} label={t('reports:volume.days.download')} />
      </header>
      <div class="report-chart-and-table">
        <ChartCanvas config={config} label={label} />
        <Table
          caption={t('reports:volume.days.caption')}
          columns={[
            t('reports:volume.days.day'),
            ...MEASURES.map((measure) => t(`reports:volume.measures.${measure}`)),
            t('reports:volume.days.previous'),
          ]}
        >
          {report.days.map((day, i) => (
            <tr key={day.day}>
              <th scope="row">{formatDay(day.day)}</th>
              {MEASURES.map((measure) => (
                <td key={measure}>{formatNumber(day[measure])}</td>
              ))}
              <td>{formatNumber(report.previous_days[i]?.messages_received ?? 0)}</td>
            </tr>
          ))}
        </Table>
      </div>
    </div>
  );
}

function PerHour({ report, query }: { report: VolumeReport; query: ReportQueryState }) {
  const config = useCallback(() => hourChart(report), [report]);
  const captionId = useId();
  const busiest = report.hours_of_week.reduce((best, cell) =>
    cell.messages_received > best.messages_received ? cell : best,
  );
  const most = Math.max(1, busiest.messages_received);
  const label =
    busiest.messages_received === 0
      ? t('reports:volume.hours.chartEmpty')
      : t('reports:volume.hours.chart', {
          weekday: formatWeekday(busiest.weekday, 'long'),
          hour: formatNumber(busiest.hour),
          count: formatNumber(busiest.messages_received),
        });
  const cell = (weekday: number, hour: number) =>
    report.hours_of_week.find((c) => c.weekday === weekday && c.hour === hour)?.messages_received ?? 0;
  return (
    <div class="report-part">
      <header class="report-section-header">
        <h3>{t('reports:volume.hours.title')}</h3>
        <Download
          href={`${reportUrl('volume', query, 'csv')}&table=hours`}
          label={t('reports:volume.hours.download')}
        />
      </header>
      <p class="hint">{t('reports:volume.hours.hint')}</p>
      <ChartCanvas config={config} label={label} />
      {/* The table is the week’s heatmap: each cell shaded by its share of the busiest hour (at most 35 %, so its figure stays readable). */}
      {/* Wider than a phone: the box scrolls sideways, reachable by keyboard (focusable, named by the caption). */}
      <div class="table-wrap" tabIndex={0} role="group" aria-labelledby={captionId}>
        <table>
          <caption id={captionId} class="visually-hidden">
            {t('reports:volume.hours.caption')}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('reports:volume.hours.weekday')}</th>
              {HOURS.map((hour) => (
                <th scope="col" key={hour}>
                  {t('reports:volume.hours.hour', { hour: formatNumber(hour) })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEK.map((weekday) => (
              <tr key={weekday}>
                <th scope="row">{formatWeekday(weekday)}</th>
                {HOURS.map((hour) => {
                  const count = cell(weekday, hour);
                  return (
                    <td key={hour} class="report-heat" style={{ '--heat': `${Math.round((count / most) * 35)}%` }}>
                      {formatNumber(count)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
