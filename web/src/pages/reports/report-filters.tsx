import { useId, useState } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import { t } from '../../i18n/i18n';
import { navigate } from '../../router';
import { TextField, useAsync } from '../../ui';
import { reportsPath, type ReportQueryState } from './report-query';

interface Option {
  value: string;
  label: string;
}

/** What the number, team and label lists offer; a list the role may not read stays empty (that filter is hidden). */
function useFilterOptions() {
  const numbers = useAsync(async () => {
    const { channels } = await action('list-channels', {});
    return channels.flatMap((channel): Option[] =>
      channel.phone_number_id
        ? [{ value: channel.phone_number_id, label: channel.display_phone_number ?? channel.phone_number_id }]
        : [],
    );
  }, []);
  const teams = useAsync(
    async () =>
      (await action('list-teams', {})).map((team) => ({
        value: team.id,
        label: team.name,
      })),
    [],
  );
  const labels = useAsync(
    async () =>
      (await dashboard.get('/api/dashboard/conversation-labels')).map((label) => ({
        value: label.name,
        label: label.name,
      })),
    [],
  );
  return { numbers: numbers.data ?? [], teams: teams.data ?? [], labels: labels.data ?? [] };
}

/** The filter bar: choosing changes the address, so Back, reloads and shared links keep the filter. */
export function ReportFilters({ query }: { query: ReportQueryState }) {
  const [draft, setDraft] = useState<ReportQueryState>(query);
  const options = useFilterOptions();
  const set = (field: keyof ReportQueryState) => (value: string) => setDraft({ ...draft, [field]: value });
  const show = (event: Event) => {
    event.preventDefault();
    navigate(reportsPath(draft));
  };
  return (
    <form class="inline-form report-filters" aria-label={t('reports:filters.name')} onSubmit={show}>
      <TextField label={t('reports:filters.from')} type="date" value={draft.from ?? ''} onValue={set('from')} />
      <TextField label={t('reports:filters.to')} type="date" value={draft.to ?? ''} onValue={set('to')} />
      <Choice
        label={t('reports:filters.number')}
        value={draft.phone_number_id}
        options={options.numbers}
        onValue={set('phone_number_id')}
      />
      <Choice
        label={t('reports:filters.team')}
        value={draft.team_id}
        options={options.teams}
        onValue={set('team_id')}
      />
      <Choice label={t('reports:filters.label')} value={draft.label} options={options.labels} onValue={set('label')} />
      <button type="submit" class="primary">
        {t('reports:filters.show')}
      </button>
      {Object.keys(query).length > 0 && (
        <button type="button" onClick={() => navigate(reportsPath({}))}>
          {t('reports:filters.clear')}
        </button>
      )}
    </form>
  );
}

/** A select of one filter; "All" leaves it out. Hidden when there is nothing to choose. */
function Choice(props: {
  label: string;
  value: string | undefined;
  options: Option[];
  onValue: (value: string) => void;
}) {
  const id = useId();
  if (props.options.length === 0 && !props.value) return null;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {/* Drawn again when the options arrive, so a value from the address finds its option. */}
      <select
        key={props.options.length}
        id={id}
        value={props.value ?? ''}
        onChange={(event) => props.onValue(event.currentTarget.value)}
      >
        <option value="">{t('reports:filters.all')}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
