import { t } from '../../i18n/i18n';
import { SummaryList, stateName } from './common';
import './words';

/** Flows: every chatbot flow with its runs by state. */
export function FlowList() {
  const count = (state: string) => (counts: Record<string, number>) => counts[state] ?? 0;
  const finished = ['completed', 'handed_off', 'failed'].map((state) => ({
    label: stateName(state),
    count: count(state),
  }));
  return (
    <SummaryList
      title={t('automation:flows.title')}
      intro={t('automation:flows.intro')}
      path="flows"
      newLabel={t('automation:flows.new')}
      empty={t('automation:flows.empty')}
      columns={[
        { label: t('automation:flows.running'), count: (counts) => (counts.active ?? 0) + (counts.waiting ?? 0) },
        ...finished,
      ]}
    />
  );
}
