import { useState } from 'preact/hooks';
import { v1, type PublicAnswer } from '../../api/client';
import { formatDay, formatMoney, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, Table, useAsync } from '../../ui';
import { reportUrl, type ReportQueryState } from './report-query';

type CostLedger = PublicAnswer<'/v1/reports/costs'>;
type Grouping = 'day' | 'channel' | 'campaign';
const GROUPINGS: Grouping[] = ['day', 'channel', 'campaign'];

/** The Reports page's cost ledger: what Meta charged for the range's messages, by day, number or campaign. */
export function CostLedgerSection({ query }: { query: ReportQueryState }) {
  const [groupBy, setGroupBy] = useState<Grouping>('day');
  const ledgerQuery = { ...query, group_by: groupBy };
  const url = reportUrl('costs', ledgerQuery);
  const ledger = useAsync(() => v1.get('/v1/reports/costs', { query: ledgerQuery }), [url]);
  return (
    <section class="report-section" aria-labelledby="report-costs">
      <div class="section-head">
        <h2 id="report-costs">{t('reports:costs.title')}</h2>
        <a href={reportUrl('costs', ledgerQuery, 'csv')} download>
          {t('reports:download')}
        </a>
      </div>
      <p class="hint">{t('reports:costs.hint')}</p>
      <label>
        {t('reports:costs.groupBy')}{' '}
        <select value={groupBy} onChange={(event) => setGroupBy(event.currentTarget.value as Grouping)}>
          {GROUPINGS.map((grouping) => (
            <option key={grouping} value={grouping}>
              {t(`reports:costs.groupings.${grouping}`)}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={ledger.error} />
      {ledger.data && <Ledger ledger={ledger.data} />}
    </section>
  );
}

function Ledger({ ledger }: { ledger: CostLedger }) {
  const { currency, total } = ledger;
  return (
    <>
      <p>
        {t('reports:costs.total', { amount: formatMoney(total.amount, currency), count: total.billable })}
        {total.unpriced > 0 && ` ${t('reports:costs.unpriced', { count: total.unpriced })}`}
      </p>
      <Table
        caption={t('reports:costs.caption')}
        columns={[
          t(`reports:costs.groupings.${ledger.group_by as Grouping}`),
          t('reports:costs.billable'),
          t('reports:costs.amount'),
        ]}
      >
        {ledger.groups.map((group) => (
          <tr key={group.key ?? 'none'}>
            <td>{groupName(ledger.group_by as Grouping, group)}</td>
            <td>{formatNumber(group.cost.billable)}</td>
            <td>{formatMoney(group.cost.amount, currency)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

/** A group's name as people know it: the day, the number as displayed, the campaign's name. */
function groupName(grouping: Grouping, group: CostLedger['groups'][number]): string {
  if (grouping === 'day') return formatDay(group.key!);
  if (group.key === null) return t(`reports:costs.none.${grouping}`);
  return group.name ?? group.key;
}
