import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { action, type ActionAnswer } from '../api/client';
import { can, useSession } from '../session';
import { CheckField, ErrorNote, Page, Table, TextField, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';
import { counted, formatNumber } from '../i18n/format';

type Settings = ActionAnswer<'get-ai-settings'>;
type Usage = ActionAnswer<'get-ai-usage'>;
type TestAnswer = ActionAnswer<'test-ai-settings'>;

/** The form's fields by their API names, with the labels their problems are shown under. */
const labels = (): Record<string, string> => ({
  enabled: t('ai-model:enabled'),
  base_url: t('ai-model:baseUrl'),
  model: t('ai-model:model'),
  api_key: t('ai-model:apiKey'),
  embeddings_model: t('ai-model:embeddingsModel'),
  timeout_seconds: t('ai-model:timeout'),
  monthly_token_budget: t('ai-model:budget'),
  input_price_per_million: t('ai-model:inputPrice'),
  output_price_per_million: t('ai-model:outputPrice'),
});

/**
 * Settings → AI model: the workspace's own OpenAI-compatible model (manage_workspace), a test of it
 * with one real round trip, and this month's usage against the budget.
 */
export function AiModelSettings() {
  const { user } = useSession();
  return (
    <Page title={t('ai-model:title')}>
      <SettingsNav />
      <p class="hint">{t('ai-model:intro')}</p>
      {can(user, 'manage_workspace') ? <AiModelLoader /> : <p class="warning">{t('ai-model:onlyAdmins')}</p>}
    </Page>
  );
}

function AiModelLoader() {
  const settings = useAsync(() => action('get-ai-settings', {}), []);
  const usage = useAsync(() => action('get-ai-usage', {}), []);
  return (
    <>
      <ErrorNote error={settings.error ?? usage.error} />
      {settings.data && <AiModelForm settings={settings.data} onChanged={usage.reload} />}
      {usage.data && <UsageSection usage={usage.data} />}
    </>
  );
}

const text = (value: number | string | null) => (value === null ? '' : String(value));
const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

/** The form keeps what it saved (the key field empties: the key is never shown again); each save or test changes the usage. */
function AiModelForm({ settings: loaded, onChanged }: { settings: Settings; onChanged: () => void }) {
  const [settings, setSettings] = useState(loaded);
  const [enabled, setEnabled] = useState(settings.enabled);
  const [baseUrl, setBaseUrl] = useState(text(settings.base_url));
  const [model, setModel] = useState(text(settings.model));
  const [apiKey, setApiKey] = useState('');
  const [embeddings, setEmbeddings] = useState(text(settings.embeddings_model));
  const [timeout, setTimeoutSeconds] = useState(text(settings.timeout_seconds));
  const [budget, setBudget] = useState(text(settings.monthly_token_budget));
  const [inputPrice, setInputPrice] = useState(text(settings.input_price_per_million));
  const [outputPrice, setOutputPrice] = useState(text(settings.output_price_per_million));
  const [saved, setSaved] = useState(false);
  const [tested, setTested] = useState<TestAnswer | null>(null);

  /** What the form says, as save-ai-settings and test-ai-settings take it: a blank key keeps the saved one. */
  const body = () => ({
    enabled,
    base_url: baseUrl.trim() || null,
    model: model.trim() || null,
    ...(apiKey.trim() && { api_key: apiKey.trim() }),
    embeddings_model: embeddings.trim() || null,
    timeout_seconds: Number(timeout),
    monthly_token_budget: numberOrNull(budget),
    input_price_per_million: numberOrNull(inputPrice),
    output_price_per_million: numberOrNull(outputPrice),
  });
  const save = useSubmit(async () => {
    setSettings(await action('save-ai-settings', body()));
    setApiKey('');
    onChanged();
    setSaved(true);
  });
  const test = useSubmit(async () => {
    setTested(await action('test-ai-settings', body()));
    onChanged();
  });
  const error = save.error ?? test.error;
  /** A change: its problem goes, and what was said of the last save or test no longer holds. */
  const changed = (...fields: string[]) => {
    save.edited(...fields);
    test.edited(...fields);
    setSaved(false);
    setTested(null);
  };
  const bind = (field: string, set: (value: string) => void) => ({
    onValue: (value: string) => {
      set(value);
      changed(field);
    },
    error: error instanceof ApiError ? error.fieldMessage(field) : undefined,
  });

  return (
    <form onSubmit={save.onSubmit} aria-label={t('ai-model:formLabel')} class="settings-form">
      <CheckField
        label={t('ai-model:enabled')}
        hint={t('ai-model:enabledHint')}
        checked={enabled}
        onChecked={(on) => {
          setEnabled(on);
          changed('enabled', 'base_url', 'model', 'api_key');
        }}
      />
      <TextField
        label={t('ai-model:baseUrl')}
        type="url"
        inputMode="url"
        maxLength={2048}
        value={baseUrl}
        hint={t('ai-model:baseUrlHint')}
        {...bind('base_url', setBaseUrl)}
      />
      <TextField
        label={t('ai-model:model')}
        maxLength={200}
        value={model}
        hint={t('ai-model:modelHint')}
        {...bind('model', setModel)}
      />
      <TextField
        label={t('ai-model:apiKey')}
        type="password"
        autoComplete="off"
        maxLength={4096}
        value={apiKey}
        hint={settings.api_key_set ? t('ai-model:apiKeySaved') : t('ai-model:apiKeyHint')}
        {...bind('api_key', setApiKey)}
      />
      <TextField
        label={t('ai-model:embeddingsModel')}
        maxLength={200}
        value={embeddings}
        hint={t('ai-model:embeddingsHint')}
        {...bind('embeddings_model', setEmbeddings)}
      />
      <TextField
        label={t('ai-model:timeout')}
        type="number"
        min={1}
        max={600}
        required
        value={timeout}
        hint={t('ai-model:timeoutHint')}
        {...bind('timeout_seconds', setTimeoutSeconds)}
      />
      <TextField
        label={t('ai-model:budget')}
        type="number"
        min={1}
        value={budget}
        hint={t('ai-model:budgetHint')}
        {...bind('monthly_token_budget', setBudget)}
      />
      <TextField
        label={t('ai-model:inputPrice')}
        type="number"
        min={0}
        step="any"
        value={inputPrice}
        hint={t('ai-model:pricesHint')}
        {...bind('input_price_per_million', setInputPrice)}
      />
      <TextField
        label={t('ai-model:outputPrice')}
        type="number"
        min={0}
        step="any"
        value={outputPrice}
        {...bind('output_price_per_million', setOutputPrice)}
      />
      <div class="form-actions">
        <button class="primary" type="submit" disabled={save.busy}>
          {t('ai-model:save')}
        </button>
        <button type="button" disabled={test.busy} onClick={() => void test.run()}>
          {test.busy ? t('ai-model:testing') : t('ai-model:test')}
        </button>
      </div>
      {!(error instanceof ApiError && error.problem.errors?.length) && <ErrorNote error={error} labels={labels()} />}
      <div role="status" class="status-line" data-testid="ai-model-status">
        {saved && <p>{t('ai-model:saved')}</p>}
        {tested && <TestOutcome answer={tested} />}
      </div>
    </form>
  );
}

const milliseconds = (ms: number) => formatNumber(ms, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' });

/** What the round trip gave: each model's answer and time, or what is wrong in the endpoint's own words. */
function TestOutcome({ answer }: { answer: TestAnswer }) {
  const problem = answer.problem;
  return (
    <>
      {answer.model !== null && answer.model_ms !== null && (
        <p>
          {t('ai-model:testOk', { model: answer.model, ms: milliseconds(answer.model_ms), reply: answer.reply ?? '' })}
        </p>
      )}
      {answer.embeddings && (
        <p>
          {t('ai-model:testEmbeddingsOk', {
            ...counted(answer.embeddings.dimensions, {
              model: answer.embeddings.model,
              ms: milliseconds(answer.embeddings.model_ms),
            }),
          })}
        </p>
      )}
      {problem && (
        <p class="error">
          {t(`ai-model:testFailed.${problem.step}`)} {t(`ai-model:reasons.${problem.reason}`)}{' '}
          <span lang="en">{problem.message}</span>
        </p>
      )}
    </>
  );
}

/** This month's calls and tokens by purpose, the budget's share used, and the cost by the saved prices. */
function UsageSection({ usage }: { usage: Usage }) {
  const budget = usage.monthly_token_budget;
  return (
    <section aria-labelledby="ai-usage-title" class="settings-form">
      <h2 id="ai-usage-title">{t('ai-model:usage.title')}</h2>
      <p data-testid="ai-usage-total">
        {budget === null
          ? t('ai-model:usage.used', counted(usage.tokens_used))
          : t('ai-model:usage.ofBudget', {
              ...counted(budget, { used: formatNumber(usage.tokens_used), left: formatNumber(usage.tokens_left ?? 0) }),
            })}
      </p>
      {budget !== null && (
        <progress
          max={budget}
          value={Math.min(usage.tokens_used, budget)}
          aria-label={t('ai-model:usage.budgetUsed')}
        />
      )}
      {usage.cost !== null && (
        <p>{t('ai-model:usage.cost', { cost: formatNumber(usage.cost, { maximumFractionDigits: 4 }) })}</p>
      )}
      {usage.purposes.length === 0 ? (
        <p class="hint">{t('ai-model:usage.none')}</p>
      ) : (
        <Table
          caption={t('ai-model:usage.caption')}
          columns={[
            t('ai-model:usage.purpose'),
            t('ai-model:usage.calls'),
            t('ai-model:usage.promptTokens'),
            t('ai-model:usage.completionTokens'),
            t('ai-model:usage.costColumn'),
          ]}
        >
          {usage.purposes.map((row) => (
            <tr key={row.purpose}>
              <th scope="row">{t(`ai-model:purposes.${row.purpose}`)}</th>
              <td>{formatNumber(row.calls)}</td>
              <td>{formatNumber(row.prompt_tokens)}</td>
              <td>{formatNumber(row.completion_tokens)}</td>
              <td>{row.cost === null ? '—' : formatNumber(row.cost, { maximumFractionDigits: 4 })}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
