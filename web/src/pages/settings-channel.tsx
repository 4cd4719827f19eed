import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { action, dashboard, type ActionAnswer, type DashboardAnswer } from '../api/client';
import type { PublicSchema } from '../api/public';
import { Link } from '../router';
import { can, useSession } from '../session';
import { askAnAdmin } from '../roles';
import { CopyButton, ErrorNote, Page, TextField, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';
import { formatDateTime, formatNumber } from '../i18n/format';
import { Rich } from '../i18n/rich';
import { messageStatusName } from './message-status';
import { accountStatusFacts } from './account-status-facts';
import { MarketingMessagesSettings } from './settings-marketing-messages';
import { FlowsEndpointSettings } from './settings-flows-endpoint';

/** One of the workspace's numbers, as list-channels shows it. */
type BusinessNumber = PublicSchema<'Channel'>;
type ChannelState = DashboardAnswer<'/api/dashboard/channel'>;
type Channel = ChannelState['channel'];
type Provider = Channel['provider'];

/** Settings → Channel: the workspace's numbers, the default channel, Meta's webhook, and a test message. */
export function ChannelSettings() {
  const { user } = useSession();
  const state = useAsync(() => dashboard.get('/api/dashboard/channel'), []);
  return (
    <Page title={t('channel:title')}>
      <SettingsNav />
      <ErrorNote error={state.error} />
      {state.data && (
        <>
          <CurrentChannel channel={state.data.channel} />
          <Numbers onChanged={state.reload} />
          <ChannelForm channel={state.data.channel} onSaved={state.reload} />
          {can(user, 'manage_channel') && <MarketingMessagesSettings />}
          {can(user, 'manage_channel') && <FlowsEndpointSettings />}
          <Webhook state={state.data} />
          <TestMessage provider={state.data.channel.provider} />
        </>
      )}
    </Page>
  );
}

function CurrentChannel({ channel }: { channel: Channel }) {
  if (channel.provider === 'simulator') {
    return (
      <p class="notice" data-testid="current-channel">
        <Rich
          text={t('channel:current.simulator')}
          parts={{
            link: (words) => <Link href="/simulator">{words}</Link>,
          }}
        />
      </p>
    );
  }
  return (
    <div class="notice" data-testid="current-channel">
      <p>
        <Rich text={t('channel:current.cloud')} />
      </p>
      <dl class="settings-facts">
        <dt>{t('channel:fields.phoneNumberId')}</dt>
        <dd>{channel.phone_number_id}</dd>
        <dt>{t('channel:fields.wabaId')}</dt>
        <dd>{channel.waba_id}</dd>
        <dt>{t('channel:fields.accessToken')}</dt>
        <dd>{channel.access_token_set ? t('channel:current.tokenSet') : t('channel:current.tokenNotSet')}</dd>
        <dt>{t('channel:fields.messagesPerSecond')}</dt>
        <dd>
          {channel.messages_per_second === 0 ? t('channel:current.noLimit') : formatNumber(channel.messages_per_second)}
        </dd>
      </dl>
    </div>
  );
}

/** The workspace's numbers: each with Meta's quality and tier; owners and admins add and remove them. */
function Numbers({ onChanged }: { onChanged: () => void }) {
  const { user } = useSession();
  const owner = can(user, 'manage_channel');
  const list = useAsync(() => action('list-channels', {}), []);
  const changed = () => {
    list.reload();
    onChanged();
  };
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  /** The click that removes a number (the built-in simulator has no id, and no button). */
  const removeNumber = (channelId: string) => () => {
    setRemoving(channelId);
    setRemoveError(null);
    action('remove-channel', { channel_id: channelId })
      .then(changed, setRemoveError)
      .finally(() => setRemoving(null));
  };
  return (
    <section aria-labelledby="numbers-title">
      <h2 id="numbers-title">{t('channel:numbers.title')}</h2>
      <p class="hint">{t('channel:numbers.hint')}</p>
      <ErrorNote error={list.error ?? removeError} />
      <ul class="settings-numbers" data-testid="numbers">
        {list.data?.channels.map((channel) => (
          <li key={channel.id ?? 'built-in'}>
            <strong>
              {channel.display_phone_number ??
                (channel.id ? channel.phone_number_id : t('channel:numbers.builtInSimulator'))}
            </strong>
            {channel.verified_name && ` ${channel.verified_name}`}
            {channel.is_default && (
              <em>
                {SEPARATOR}
                {t('channel:numbers.default')}
              </em>
            )}
            <br />
            {numberFacts(channel).join(SEPARATOR)}{' '}
            {owner && channel.id && (
              <button
                type="button"
                disabled={removing === channel.id}
                aria-label={t('channel:numbers.removeNumber', { number: channel.phone_number_id ?? channel.id })}
                onClick={removeNumber(channel.id)}
              >
                {t('channel:numbers.remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {owner && <AddNumber onAdded={changed} />}
    </section>
  );
}

/** Between the facts of a number. */
const SEPARATOR = ' · ';

/**
 * A number's kind, Meta's id for it, Meta's quality rating and messaging limit tier (Meta's own codes), and
 * whether the business also uses it in the WhatsApp Business app, with its chat history's import.
 */
function numberFacts(channel: BusinessNumber): string[] {
  return [
    providerName(channel.provider),
    channel.phone_number_id && t('channel:numbers.phoneNumberId', { id: channel.phone_number_id }),
    channel.quality_rating && t('channel:numbers.quality', { rating: channel.quality_rating }),
    channel.messaging_limit_tier && t('channel:numbers.limit', { tier: channel.messaging_limit_tier }),
    channel.portfolio_limit && portfolioLimitFact(channel.portfolio_limit),
    channel.disconnection && t('channel:numbers.disconnected', { event: channel.disconnection.event }),
    ...accountStatusFacts(channel.account_status),
    channel.business_app && t('channel:numbers.businessApp', { perSecond: formatNumber(channel.messages_per_second) }),
    channel.history_import && historyFact(channel.history_import),
  ].filter((fact): fact is string => Boolean(fact));
}

/** The business portfolio's messaging limit, as Meta last said it: with its event (UPGRADE, DOWNGRADE…) when it named one. */
function portfolioLimitFact(limit: NonNullable<BusinessNumber['portfolio_limit']>): string {
  const when = formatDateTime(limit.updated_at);
  const said = limit.event
    ? t('channel:numbers.portfolioLimitEvent', { event: limit.event, when })
    : t('channel:numbers.portfolioLimitSaid', { when });
  return limit.customers_per_24h === 'unlimited'
    ? t('channel:numbers.portfolioLimitUnlimited', { said })
    : t('channel:numbers.portfolioLimit', {
        count: limit.customers_per_24h,
        limit: formatNumber(limit.customers_per_24h),
        said,
      });
}

/** How far the import of the WhatsApp Business app's chat history has come. */
function historyFact(history: NonNullable<BusinessNumber['history_import']>): string {
  if (history.declined) return t('channel:numbers.historyDeclined');
  const messages = formatNumber(history.messages);
  return history.progress >= 100
    ? t('channel:numbers.historyDone', { messages })
    : t('channel:numbers.historyImporting', { progress: formatNumber(history.progress), messages });
}

const providerName = (provider: string) =>
  provider === 'simulator' ? t('channel:providers.simulator') : t('channel:providers.cloud');

/** Connects another number: Meta must confirm it, with the token given, before it is saved. */
function AddNumber({ onAdded }: { onAdded: () => void }) {
  const [provider, setProvider] = useState<Provider>('whatsapp-cloud');
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [wabaId, setWabaId] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [makeDefault, setMakeDefault] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const add = useSubmit(async () => {
    setAdded(null);
    const cloud = provider === 'whatsapp-cloud' && { waba_id: wabaId, access_token: accessToken };
    const channel = await action('add-channel', {
      provider,
      ...(phoneNumberId && { phone_number_id: phoneNumberId }),
      ...cloud,
      default: makeDefault,
    });
    setPhoneNumberId('');
    setAccessToken('');
    setAdded(channel.display_phone_number ?? channel.phone_number_id ?? t('channel:providers.simulator'));
    onAdded();
  });
  const fieldMessage = (field: string) => (add.error instanceof ApiError ? add.error.fieldMessage(field) : undefined);
  return (
    <form onSubmit={add.onSubmit} aria-labelledby="add-number-title">
      <h3 id="add-number-title">{t('channel:add.title')}</h3>
      <div class="settings-choices">
        <label>
          <input
            type="radio"
            name="new-provider"
            checked={provider === 'whatsapp-cloud'}
            onChange={() => setProvider('whatsapp-cloud')}
          />{' '}
          {t('channel:providers.cloudApi')}
        </label>
        <label>
          <input
            type="radio"
            name="new-provider"
            checked={provider === 'simulator'}
            onChange={() => setProvider('simulator')}
          />{' '}
          {t('channel:add.simulated')}
        </label>
      </div>
      <div class="form-grid">
        <TextField
          label={t('channel:fields.phoneNumberId')}
          required={provider === 'whatsapp-cloud'}
          inputMode="numeric"
          value={phoneNumberId}
          onValue={setPhoneNumberId}
          error={fieldMessage('phone_number_id')}
        />
        {provider === 'whatsapp-cloud' && (
          <>
            <CloudCredentialFields
              wabaId={wabaId}
              setWabaId={setWabaId}
              accessToken={accessToken}
              setAccessToken={setAccessToken}
              fieldMessage={fieldMessage}
            />
          </>
        )}
      </div>
      <label>
        <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.currentTarget.checked)} />{' '}
        {t('channel:add.makeDefault')}
      </label>
      <button type="submit" disabled={add.busy}>
        {t('channel:add.submit')}
      </button>
      {!(add.error instanceof ApiError && add.error.problem.errors?.length) && <ErrorNote error={add.error} />}
      <p role="status" class="status-line">
        {added && t('channel:add.added', { number: added })}
      </p>
    </form>
  );
}

/** A Cloud number's account id and access token; with a token saved, leaving it blank keeps it. */
function CloudCredentialFields(props: {
  wabaId: string;
  setWabaId: (value: string) => void;
  accessToken: string;
  setAccessToken: (value: string) => void;
  fieldMessage: (field: string) => string | undefined;
  tokenSaved?: boolean;
  tokenHint?: string;
}) {
  return (
    <>
      <TextField
        label={t('channel:fields.wabaId')}
        required
        inputMode="numeric"
        value={props.wabaId}
        onValue={props.setWabaId}
        error={props.fieldMessage('waba_id')}
      />
      <TextField
        label={t('channel:fields.accessToken')}
        type="password"
        autoComplete="off"
        required={!props.tokenSaved}
        value={props.accessToken}
        onValue={props.setAccessToken}
        hint={props.tokenSaved ? t('channel:form.tokenSaved') : props.tokenHint}
        error={props.fieldMessage('access_token')}
      />
    </>
  );
}

function ChannelForm({ channel, onSaved }: { channel: Channel; onSaved: () => void }) {
  const { user } = useSession();
  const owner = can(user, 'manage_channel');
  const [saved, setSaved] = useState(false);
  /** A field's state; editing it clears "Channel saved." */
  const useField = <T,>(initial: T) => {
    const [value, set] = useState(initial);
    const change = (next: T) => {
      setSaved(false);
      set(next);
    };
    return [value, change] as const;
  };
  const [provider, setProvider] = useField<Provider>(channel.provider);
  const [phoneNumberId, setPhoneNumberId] = useField(channel.phone_number_id ?? '');
  const [wabaId, setWabaId] = useField(channel.waba_id ?? '');
  const [accessToken, setAccessToken] = useField('');
  const [perSecond, setPerSecond] = useField(String(channel.messages_per_second));
  const save = useSubmit(async () => {
    const body =
      provider === 'simulator'
        ? { provider }
        : {
            provider,
            phone_number_id: phoneNumberId,
            waba_id: wabaId,
            access_token: accessToken,
            messages_per_second: Number(perSecond),
          };
    await dashboard.put('/api/dashboard/channel', { body });
    setAccessToken('');
    setSaved(true);
    onSaved();
  });
  const fieldMessage = (field: string) => (save.error instanceof ApiError ? save.error.fieldMessage(field) : undefined);

  return (
    <form onSubmit={save.onSubmit} aria-labelledby="channel-form-title">
      <h2 id="channel-form-title">{t('channel:form.title')}</h2>
      {!owner && (
        <p class="warning">
          {askAnAdmin(user, t('channel:form.changeTheChannel'))} {t('channel:form.readOnly')}
        </p>
      )}
      <fieldset class="plain" disabled={!owner}>
        <legend class="visually-hidden">{t('channel:title')}</legend>
        <div class="settings-choices">
          <label>
            <input
              type="radio"
              name="provider"
              value="simulator"
              checked={provider === 'simulator'}
              onChange={() => setProvider('simulator')}
            />{' '}
            {t('channel:form.simulator')}
          </label>
          <label>
            <input
              type="radio"
              name="provider"
              value="whatsapp-cloud"
              checked={provider === 'whatsapp-cloud'}
              onChange={() => setProvider('whatsapp-cloud')}
            />{' '}
            {t('channel:providers.cloudApi')}
          </label>
        </div>
        {provider === 'whatsapp-cloud' && <p class="hint">{t('channel:form.metaConfirms')}</p>}
        {provider === 'whatsapp-cloud' && (
          <div class="form-grid">
            <TextField
              label={t('channel:fields.phoneNumberId')}
              required
              inputMode="numeric"
              value={phoneNumberId}
              onValue={setPhoneNumberId}
              hint={t('channel:form.phoneNumberIdHint')}
              error={fieldMessage('phone_number_id')}
            />
            <CloudCredentialFields
              wabaId={wabaId}
              setWabaId={setWabaId}
              accessToken={accessToken}
              setAccessToken={setAccessToken}
              fieldMessage={fieldMessage}
              tokenSaved={channel.access_token_set}
              tokenHint={t('channel:form.tokenHint')}
            />
            <TextField
              label={t('channel:fields.messagesPerSecond')}
              type="number"
              min={0}
              max={1000}
              required
              value={perSecond}
              onValue={setPerSecond}
              hint={t('channel:form.messagesPerSecondHint')}
              error={fieldMessage('messages_per_second')}
            />
          </div>
        )}
        {owner && (
          <button class="primary" type="submit" disabled={save.busy}>
            {t('channel:form.save')}
          </button>
        )}
      </fieldset>
      {!(save.error instanceof ApiError && save.error.problem.errors?.length) && <ErrorNote error={save.error} />}
      <p role="status" class="status-line">
        {saved ? t('channel:form.saved') : ''}
      </p>
    </form>
  );
}

/** Names from code (settings, variables, Meta's fields) inside a sentence. */
function Webhook({ state }: { state: ChannelState }) {
  return (
    <section aria-labelledby="webhook-title">
      <h2 id="webhook-title">{t('channel:webhook.title')}</h2>
      <p>
        <Rich text={t('channel:webhook.howTo')} />
      </p>
      <dl class="settings-facts">
        <dt>{t('channel:webhook.callbackUrl')}</dt>
        <dd class="secret">
          <code data-testid="webhook-url">{state.webhook_url}</code> <CopyButton text={state.webhook_url} />
          {!state.webhook_url_public && (
            <p class="warning-text" data-testid="webhook-url-warning">
              <Rich text={t('channel:webhook.unreachable')} />
            </p>
          )}
        </dd>
        <dt>{t('channel:webhook.verifyToken')}</dt>
        <dd class="secret">
          {state.verify_token ? (
            <>
              <code data-testid="verify-token">{state.verify_token}</code> <CopyButton text={state.verify_token} />
            </>
          ) : state.verify_token_set ? (
            t('channel:webhook.verifyTokenHidden')
          ) : (
            <span class="warning-text">
              <Rich text={t('channel:webhook.verifyTokenNotSet')} />
            </span>
          )}
        </dd>
        <dt>{t('channel:webhook.appSecret')}</dt>
        <dd>
          {state.app_secret_set ? (
            t('channel:webhook.appSecretSet')
          ) : (
            <span class="warning-text">
              <Rich text={t('channel:webhook.appSecretNotSet')} />
            </span>
          )}
        </dd>
      </dl>
    </section>
  );
}

function TestMessage({ provider }: { provider: Provider }) {
  const [phone, setPhone] = useState('');
  const [text, setText] = useState(() => t('channel:test.defaultText'));
  const [sent, setSent] = useState<ActionAnswer<'send-text-message'> | null>(null);
  const send = useSubmit(async () => {
    setSent(null);
    setSent(await action('send-text-message', { phone, message: text }));
  });
  const windowClosed = send.error instanceof ApiError && send.error.problem.code === 'customer_service_window_closed';

  return (
    <section aria-labelledby="test-title">
      <h2 id="test-title">{t('channel:test.title')}</h2>
      <p class="hint">
        {provider === 'simulator' ? t('channel:test.simulated') : t('channel:test.cloud')} {t('channel:test.window')}
      </p>
      <form class="inline-form" onSubmit={send.onSubmit} aria-label={t('channel:test.title')}>
        <TextField
          label={t('channel:test.phone')}
          type="tel"
          required
          value={phone}
          onValue={setPhone}
          placeholder="+14155550100"
        />
        <TextField label={t('channel:test.text')} required maxLength={4096} value={text} onValue={setText} />
        <button type="submit" disabled={send.busy}>
          {t('channel:test.send')}
        </button>
      </form>
      {windowClosed ? (
        <div class="warning" role="alert">
          <p>{(send.error as ApiError).message}</p>
          <p>
            <Rich
              text={t('channel:test.windowClosed')}
              parts={{ link: (words) => <Link href="/templates">{words}</Link> }}
            />
          </p>
        </div>
      ) : (
        <ErrorNote error={send.error} />
      )}
      <p role="status" class="status-line">
        {sent && t('channel:test.queued', { status: messageStatusName(sent.status), id: sent.id })}
      </p>
    </section>
  );
}
