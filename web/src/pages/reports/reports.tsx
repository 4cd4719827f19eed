import { addEnglish, t } from '../../i18n/i18n';
import campaignReport from '../../locales/en/campaign-report.json';
import reports from '../../locales/en/reports.json';
import teamReport from '../../locales/en/team-report.json';
import { Page } from '../../ui';
import { AiSection } from './ai';
import { CampaignOutcomes } from './campaign-outcomes';
import { CostLedgerSection } from './costs';
import { RateCards } from './rate-cards';
import { MessageRatesForm } from './rates';
import { ReportFilters } from './report-filters';
import { queryOf } from './report-query';
import { TeamFigures } from './team-figures';
import { VolumeSection } from './volume';

// The Reports page's words come with it (before it renders).
addEnglish({ reports, 'campaign-report': campaignReport, 'team-report': teamReport });

/**
 * Reports: one filter (dates, number, team, label) kept in the address, so a link shares it, and the
 * sections that each fetch their own report with it: the team's figures, the AI assistant's, the volume, the campaigns, the costs.
 */
export function ReportsPage({ search }: { search: string }) {
  const query = queryOf(new URLSearchParams(search));
  return (
    <Page title={t('reports:title')}>
      <ReportFilters key={search} query={query} />
      <TeamFigures query={query} />
      <AiSection query={query} />
      <VolumeSection query={query} />
      <CampaignOutcomes query={query} />
      <CostLedgerSection query={query} />
      <section class="report-section" aria-labelledby="report-rates">
        <h2 id="report-rates">{t('reports:rates.title')}</h2>
        <p class="hint">{t('reports:rates.hint')}</p>
        <MessageRatesForm onSaved={() => undefined} />
        <RateCards />
      </section>
    </Page>
  );
}
