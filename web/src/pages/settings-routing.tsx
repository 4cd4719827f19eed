import { useEffect, useState } from 'preact/hooks';
import { action, dashboard, type ActionAnswer, type DashboardAnswer } from '../api/client';
import type { PublicSchema } from '../api/public';
import { can, useSession } from '../session';
import { ConfirmButton, ErrorNote, Page, TextField, fieldErrors, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';
import { formatNumber } from '../i18n/format';
import { Rich } from '../i18n/rich';

type Team = PublicSchema<'Team'>;
type RoutingSettings = ActionAnswer<'get-routing-settings'>;
type Rule = RoutingSettings['rules'][number];
type Person = DashboardAnswer<'/api/dashboard/team'>[number];

const KINDS: Rule['kind'][] = ['keyword', 'tag', 'number'];

/** What a rule of this kind looks at, as its "When" list names it. */
const kindLabel = (kind: Rule['kind']): string => t(`routing:rules.kinds.${kind}`);

/** Settings → Routing: teams and their members, automatic assignment and the rules that pick a team. */
export function RoutingSettingsPage() {
  const { user } = useSession();
  const manages = can(user, 'routing');
  const teams = useAsync(() => action('list-teams', {}), []);
  const people = useAsync(() => dashboard.get('/api/dashboard/team'), []);
  const settings = useAsync(() => action('get-routing-settings', {}), []);
  return (
    <Page title={t('routing:title')}>
      <SettingsNav />
      <p class="muted">{t('routing:intro')}</p>
      {!manages && <p class="muted">{t('routing:onlyAdmins')}</p>}
      <ErrorNote error={teams.error ?? people.error ?? settings.error} />
      {settings.data && (
        <AssignmentForm
          key={JSON.stringify(settings.data)}
          settings={settings.data}
          manages={manages}
          onSaved={settings.reload}
        />
      )}
      <h2>{t('routing:teams.title')}</h2>
      {manages && <TeamForm onSaved={teams.reload} />}
      {teams.data?.length === 0 && <p class="muted">{t('routing:teams.none')}</p>}
      {teams.data?.map((team) => (
        <TeamCard key={team.id} team={team} people={people.data ?? []} manages={manages} onChange={teams.reload} />
      ))}
      {settings.data && teams.data && (
        <RulesForm
          key={JSON.stringify(settings.data.rules)}
          rules={settings.data.rules}
          teams={teams.data}
          manages={manages}
          onSaved={settings.reload}
        />
      )}
    </Page>
  );
}

function AssignmentForm(props: { settings: RoutingSettings; manages: boolean; onSaved: () => void }) {
  const [auto, setAuto] = useState(props.settings.auto_assign);
  const [limit, setLimit] = useState(props.settings.agent_limit === null ? '' : String(props.settings.agent_limit));
  const save = useSubmit(async () => {
    await action('update-routing-settings', { auto_assign: auto, agent_limit: limit.trim() ? Number(limit) : null });
    props.onSaved();
  });
  const errors = fieldErrors(save.error, { agent_limit: t('routing:assignment.limit') });
  return (
    <form onSubmit={save.onSubmit} aria-labelledby="assignment-heading">
      <h2 id="assignment-heading">{t('routing:assignment.title')}</h2>
      <div class="field checkbox">
        <label>
          <input
            type="checkbox"
            checked={auto}
            disabled={!props.manages}
            onChange={(e) => setAuto(e.currentTarget.checked)}
          />{' '}
          {t('routing:assignment.auto')}
        </label>
      </div>
      <TextField
        label={t('routing:assignment.limit')}
        type="number"
        min={1}
        value={limit}
        onValue={setLimit}
        disabled={!props.manages}
        hint={t('routing:assignment.limitHint')}
        error={errors.field('agent_limit')}
      />
      <ErrorNote error={errors.note} />
      {props.manages && (
        <button type="submit" class="primary" disabled={save.busy}>
          {t('routing:assignment.save')}
        </button>
      )}
    </form>
  );
}

/** Adds a team, or renames `team` when given. */
function TeamForm(props: { team?: Team; onSaved: () => void; onCancel?: () => void }) {
  const [name, setName] = useState(props.team?.name ?? '');
  const save = useSubmit(async () => {
    if (props.team) await action('update-team', { team_id: props.team.id, name });
    else await action('create-team', { name });
    if (!props.team) setName('');
    props.onSaved();
  });
  const errors = fieldErrors(save.error, { name: t('routing:teams.name') });
  return (
    <form
      class="inline-form"
      onSubmit={save.onSubmit}
      aria-label={props.team ? t('routing:teams.renameTeam', { team: props.team.name }) : t('routing:teams.addTitle')}
    >
      <TextField
        label={t('routing:teams.name')}
        value={name}
        onValue={setName}
        required
        maxLength={64}
        error={errors.field('name')}
      />
      <ErrorNote error={errors.note} />
      <div class="reply-actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {props.team ? t('routing:teams.saveName') : t('routing:teams.add')}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {t('routing:teams.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

function TeamCard(props: { team: Team; people: Person[]; manages: boolean; onChange: () => void }) {
  const { team } = props;
  const [renaming, setRenaming] = useState(false);
  const [chosen, setChosen] = useState(new Set(team.members.map((m) => m.id)));
  useEffect(() => setChosen(new Set(team.members.map((m) => m.id))), [team]);
  const save = useSubmit(async () => {
    await action('set-team-members', { team_id: team.id, member_ids: [...chosen] });
    props.onChange();
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  const availability = new Map(team.members.map((m) => [m.id, m.available]));
  return (
    <section class="team-card" aria-labelledby={`team-${team.id}`}>
      <h3 id={`team-${team.id}`}>{team.name}</h3>
      {renaming ? (
        <TeamForm
          team={team}
          onSaved={() => {
            setRenaming(false);
            props.onChange();
          }}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <form onSubmit={save.onSubmit}>
          <fieldset disabled={!props.manages}>
            <legend>{t('routing:teams.members', { team: team.name })}</legend>
            {props.people.map((person) => (
              <div class="field checkbox" key={person.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(person.id)}
                    onChange={(e) => toggle(person.id, e.currentTarget.checked)}
                  />{' '}
                  {person.name || person.email}
                  {availability.get(person.id) === false && <span class="muted"> {t('routing:teams.away')}</span>}
                </label>
              </div>
            ))}
          </fieldset>
          <ErrorNote error={save.error} />
          {props.manages && (
            <div class="reply-actions">
              <button type="submit" class="primary" disabled={save.busy}>
                <Rich text={t('routing:teams.saveMembers', { team: team.name })} />
              </button>
              <button type="button" onClick={() => setRenaming(true)}>
                <Rich text={t('routing:teams.rename', { team: team.name })} />
              </button>
              <ConfirmButton
                label={t('routing:teams.delete', { team: team.name })}
                question={t('routing:teams.deleteQuestion', { team: team.name })}
                confirmLabel={t('routing:teams.deleteConfirm')}
                danger
                onConfirm={async () => {
                  await action('delete-team', { team_id: team.id });
                  props.onChange();
                }}
              />
            </div>
          )}
        </form>
      )}
    </section>
  );
}

/** The ordered rules: the first that matches a conversation as it opens picks its team. */
function RulesForm(props: { rules: Rule[]; teams: Team[]; manages: boolean; onSaved: () => void }) {
  const [rules, setRules] = useState<Rule[]>(props.rules);
  const channels = useAsync(() => action('list-channels', {}), []);
  const numbers = channels.data?.channels ?? [];
  const save = useSubmit(async () => {
    await action('update-routing-settings', { rules });
    props.onSaved();
  });
  const change = (index: number, patch: Partial<Rule>) =>
    setRules(rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  const labels = Object.fromEntries(
    rules.flatMap((_, i) => [
      [`rules/${i}/value`, t('routing:rules.valueOf', { number: formatNumber(i + 1) })],
      [`rules/${i}/team_id`, t('routing:rules.teamOf', { number: formatNumber(i + 1) })],
    ]),
  );
  const firstTeam = props.teams[0]?.id;
  return (
    <form onSubmit={save.onSubmit} aria-labelledby="rules-heading">
      <h2 id="rules-heading">{t('routing:rules.title')}</h2>
      <p class="muted">{t('routing:rules.intro')}</p>
      {rules.length === 0 && <p class="muted">{t('routing:rules.none')}</p>}
      <ol class="routing-rules">
        {rules.map((rule, i) => (
          <li key={i}>
            <fieldset disabled={!props.manages}>
              <legend>{t('routing:rules.rule', { number: formatNumber(i + 1) })}</legend>
              <div class="field">
                <label for={`rule-kind-${i}`}>{t('routing:rules.when')}</label>
                <select
                  id={`rule-kind-${i}`}
                  value={rule.kind}
                  onChange={(e) => change(i, { kind: e.currentTarget.value as Rule['kind'], value: '' })}
                >
                  {KINDS.filter((kind) => kind !== 'number' || numbers.length > 0).map((kind) => (
                    <option key={kind} value={kind}>
                      {kindLabel(kind)}
                    </option>
                  ))}
                </select>
              </div>
              {rule.kind === 'number' ? (
                <div class="field">
                  <label for={`rule-value-${i}`}>{t('routing:rules.number')}</label>
                  <select
                    id={`rule-value-${i}`}
                    value={rule.value}
                    onChange={(e) => change(i, { value: e.currentTarget.value })}
                  >
                    <option value="">{t('routing:rules.chooseNumber')}</option>
                    {numbers.map((n) => (
                      <option key={n.id} value={n.id ?? ''}>
                        {n.display_phone_number ?? n.verified_name ?? n.id}
                      </option>
                    ))}
                  </select>
                </div>
              ) : (
                <TextField
                  label={rule.kind === 'tag' ? t('routing:rules.tag') : t('routing:rules.words')}
                  value={rule.value}
                  onValue={(value) => change(i, { value })}
                  required
                  maxLength={200}
                />
              )}
              <div class="field">
                <label for={`rule-team-${i}`}>{t('routing:rules.team')}</label>
                <select
                  id={`rule-team-${i}`}
                  value={rule.team_id}
                  onChange={(e) => change(i, { team_id: e.currentTarget.value })}
                >
                  {props.teams.map((team) => (
                    <option key={team.id} value={team.id}>
                      {team.name}
                    </option>
                  ))}
                </select>
              </div>
              {props.manages && (
                <div class="reply-actions">
                  <button type="button" disabled={i === 0} onClick={() => setRules(moveUp(rules, i))}>
                    <Rich text={t('routing:rules.moveUp', { number: formatNumber(i + 1) })} />
                  </button>
                  <button type="button" onClick={() => setRules(rules.filter((_, j) => j !== i))}>
                    <Rich text={t('routing:rules.remove', { number: formatNumber(i + 1) })} />
                  </button>
                </div>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
      <ErrorNote error={save.error} labels={labels} />
      {props.manages && (
        <div class="reply-actions">
          <button
            type="button"
            disabled={!firstTeam}
            onClick={() => firstTeam && setRules([...rules, { kind: 'keyword', value: '', team_id: firstTeam }])}
          >
            {t('routing:rules.add')}
          </button>
          <button type="submit" class="primary" disabled={save.busy}>
            {t('routing:rules.save')}
          </button>
        </div>
      )}
      {props.manages && !firstTeam && <p class="muted">{t('routing:rules.teamFirst')}</p>}
    </form>
  );
}

const moveUp = <T,>(items: T[], index: number): T[] => {
  const moved = [...items];
  [moved[index - 1], moved[index]] = [moved[index]!, moved[index - 1]!];
  return moved;
};
