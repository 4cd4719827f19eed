import { useState } from 'preact/hooks';
import { action, ApiError, dashboard } from '../api';
import { Link } from '../router';
import { can, useSession } from '../session';
import { askAnAdmin } from '../roles';
import { CopyButton, ErrorNote, Page, TextField, useAsync, useSubmit } from '../ui';
import { SettingsNav } from './settings-nav';
import type { components } from '../../../packages/client/src/schema';

/** One of the workspace's numbers, as list-channels shows it. */
type BusinessNumber = components['schemas']['Channel'];

type Provider = 'simulator' | 'whatsapp-cloud';

interface Channel {
  provider: Provider;
  phone_number_id: string | null;
  waba_id: string | null;
  access_token_set: boolean;
  messages_per_second: number;
}

interface ChannelState {
  channel: Channel;
  webhook_url: string;
  webhook_url_public: boolean;
  verify_token_set: boolean;
  app_secret_set: boolean;
  verify_token: string | null;
}

/** Settings → Channel: the workspace's numbers, the default channel, Meta's webhook, and a test message. */
export function ChannelSettings() {
  const state = useAsync(() => dashboard.get<ChannelState>('channel'), []);
  return (
    <Page title="Channel">
      <SettingsNav />
      <ErrorNote error={state.error} />
      {state.data && (
        <>
          <CurrentChannel channel={state.data.channel} />
          <Numbers onChanged={state.reload} />
          <ChannelForm channel={state.data.channel} onSaved={state.reload} />
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
        Current channel: <strong>Simulator</strong>. Nothing leaves Parley: messages are marked sent and delivered, and
        you write in as a contact from the <Link href="/simulator">Simulator</Link>.
      </p>
    );
  }
  return (
    <div class="notice" data-testid="current-channel">
      <p>
        Current channel: <strong>WhatsApp Cloud</strong>
      </p>
      <dl class="settings-facts">
        <dt>Phone number id</dt>
        <dd>{channel.phone_number_id}</dd>
        <dt>WhatsApp Business Account id</dt>
        <dd>{channel.waba_id}</dd>
        <dt>Access token</dt>
        <dd>{channel.access_token_set ? 'set' : 'not set'}</dd>
        <dt>Messages per second</dt>
        <dd>{channel.messages_per_second === 0 ? 'no limit' : channel.messages_per_second}</dd>
      </dl>
    </div>
  );
}

/** The workspace's numbers: each with Meta's quality and tier; owners and admins add and remove them. */
function Numbers({ onChanged }: { onChanged: () => void }) {
  const { user } = useSession();
  const owner = can(user, 'manage_channel');
  const list = useAsync(() => action<{ channels: BusinessNumber[] }>('list-channels'), []);
  const changed = () => {
    list.reload();
    onChanged();
  };
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const removeNumber = async (channel: BusinessNumber) => {
    setRemoving(channel.id);
    setRemoveError(null);
    try {
      await action('remove-channel', { channel_id: channel.id });
      changed();
    } catch (error) {
      setRemoveError(error);
    } finally {
      setRemoving(null);
    }
  };
  return (
    <section aria-labelledby="numbers-title">
      <h2 id="numbers-title">Numbers</h2>
      <p class="hint">
        Replies go out on the number the customer last wrote to; other messages on the default, unless an integration
        names another number when it sends.
      </p>
      <ErrorNote error={list.error ?? removeError} />
      <ul class="settings-numbers" data-testid="numbers">
        {list.data?.channels.map((channel) => (
          <li key={channel.id ?? 'built-in'}>
            <strong>
              {channel.display_phone_number ?? (channel.id ? channel.phone_number_id : 'Built-in simulator')}
            </strong>
            {channel.verified_name && ` ${channel.verified_name}`}
            {channel.is_default && <em> · default</em>}
            <br />
            {channel.provider === 'simulator' ? 'Simulator' : 'WhatsApp Cloud'}
            {channel.phone_number_id && ` · phone number id ${channel.phone_number_id}`}
            {channel.quality_rating && ` · quality ${channel.quality_rating}`}
            {channel.messaging_limit_tier && ` · messaging limit ${channel.messaging_limit_tier}`}{' '}
            {owner && channel.id && (
              <button
                type="button"
                disabled={removing === channel.id}
                aria-label={`Remove number ${channel.phone_number_id ?? channel.id}`}
                onClick={() => void removeNumber(channel)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {owner && <AddNumber onAdded={changed} />}
    </section>
  );
}

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
    const channel = await action<BusinessNumber>('add-channel', {
      provider,
      ...(phoneNumberId && { phone_number_id: phoneNumberId }),
      ...cloud,
      default: makeDefault,
    });
    setPhoneNumberId('');
    setAccessToken('');
    setAdded(channel.display_phone_number ?? channel.phone_number_id ?? 'Simulator');
    onAdded();
  });
  const fieldError = (field: string) => (add.error instanceof ApiError ? add.error.fieldMessage(field) : undefined);
  return (
    <form onSubmit={add.onSubmit} aria-labelledby="add-number-title">
      <h3 id="add-number-title">Add a number</h3>
      <div class="settings-choices">
        <label>
          <input
            type="radio"
            name="new-provider"
            checked={provider === 'whatsapp-cloud'}
            onChange={() => setProvider('whatsapp-cloud')}
          />{' '}
          WhatsApp Cloud API
        </label>
        <label>
          <input
            type="radio"
            name="new-provider"
            checked={provider === 'simulator'}
            onChange={() => setProvider('simulator')}
          />{' '}
          Simulated number
        </label>
      </div>
      <div class="form-grid">
        <TextField
          label="Phone number id"
          required={provider === 'whatsapp-cloud'}
          inputMode="numeric"
          value={phoneNumberId}
          onValue={setPhoneNumberId}
          error={fieldError('phone_number_id')}
        />
        {provider === 'whatsapp-cloud' && (
          <>
            <CloudCredentialFields
              wabaId={wabaId}
              setWabaId={setWabaId}
              accessToken={accessToken}
              setAccessToken={setAccessToken}
              fieldError={fieldError}
            />
          </>
        )}
      </div>
      <label>
        <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.currentTarget.checked)} /> Make
        it the default
      </label>
      <button type="submit" disabled={add.busy}>
        Add number
      </button>
      {!(add.error instanceof ApiError && add.error.problem.errors?.length) && <ErrorNote error={add.error} />}
      <p role="status" class="status-line">
        {added && `Number ${added} added.`}
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
  fieldError: (field: string) => string | undefined;
  tokenSaved?: boolean;
  tokenHint?: string;
}) {
  return (
    <>
      <TextField
        label="WhatsApp Business Account id"
        required
        inputMode="numeric"
        value={props.wabaId}
        onValue={props.setWabaId}
        error={props.fieldError('waba_id')}
      />
      <TextField
        label="Access token"
        type="password"
        autoComplete="off"
        required={!props.tokenSaved}
        value={props.accessToken}
        onValue={props.setAccessToken}
        hint={props.tokenSaved ? 'A token is saved; leave blank to keep it.' : props.tokenHint}
        error={props.fieldError('access_token')}
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
    await dashboard.put('channel', body);
    setAccessToken('');
    setSaved(true);
    onSaved();
  });
  const fieldError = (field: string) => (save.error instanceof ApiError ? save.error.fieldMessage(field) : undefined);

  return (
    <form onSubmit={save.onSubmit} aria-labelledby="channel-form-title">
      <h2 id="channel-form-title">Send through</h2>
      {!owner && <p class="warning">{askAnAdmin(user, 'change the channel')} You see it read-only.</p>}
      <fieldset class="plain" disabled={!owner}>
        <legend class="visually-hidden">Channel</legend>
        <div class="settings-choices">
          <label>
            <input
              type="radio"
              name="provider"
              value="simulator"
              checked={provider === 'simulator'}
              onChange={() => setProvider('simulator')}
            />{' '}
            Simulator (try Parley without WhatsApp)
          </label>
          <label>
            <input
              type="radio"
              name="provider"
              value="whatsapp-cloud"
              checked={provider === 'whatsapp-cloud'}
              onChange={() => setProvider('whatsapp-cloud')}
            />{' '}
            WhatsApp Cloud API
          </label>
        </div>
        {provider === 'whatsapp-cloud' && (
          <p class="hint">
            Before saving, Parley asks Meta with this access token for the phone number and for the WhatsApp Business
            Account's numbers: only a number Meta confirms is the account's is connected.
          </p>
        )}
        {provider === 'whatsapp-cloud' && (
          <div class="form-grid">
            <TextField
              label="Phone number id"
              required
              inputMode="numeric"
              value={phoneNumberId}
              onValue={setPhoneNumberId}
              hint="Meta → WhatsApp → API Setup"
              error={fieldError('phone_number_id')}
            />
            <CloudCredentialFields
              wabaId={wabaId}
              setWabaId={setWabaId}
              accessToken={accessToken}
              setAccessToken={setAccessToken}
              fieldError={fieldError}
              tokenSaved={channel.access_token_set}
              tokenHint="A permanent system-user token with whatsapp_business_messaging."
            />
            <TextField
              label="Messages per second"
              type="number"
              min={0}
              max={1000}
              required
              value={perSecond}
              onValue={setPerSecond}
              hint="Meta's default is 80; 0 means no limit from Parley."
              error={fieldError('messages_per_second')}
            />
          </div>
        )}
        {owner && (
          <button class="primary" type="submit" disabled={save.busy}>
            Save channel
          </button>
        )}
      </fieldset>
      {!(save.error instanceof ApiError && save.error.problem.errors?.length) && <ErrorNote error={save.error} />}
      <p role="status" class="status-line">
        {saved ? 'Channel saved.' : ''}
      </p>
    </form>
  );
}

function Webhook({ state }: { state: ChannelState }) {
  return (
    <section aria-labelledby="webhook-title">
      <h2 id="webhook-title">Meta webhook</h2>
      <p>
        In Meta's app dashboard (WhatsApp → Configuration), set the callback URL and verify token below and subscribe to
        the <code>messages</code> and <code>message_template_status_update</code> fields.
      </p>
      <dl class="settings-facts">
        <dt>Callback URL</dt>
        <dd class="secret">
          <code data-testid="webhook-url">{state.webhook_url}</code> <CopyButton text={state.webhook_url} />
          {!state.webhook_url_public && (
            <p class="warning-text" data-testid="webhook-url-warning">
              Meta cannot reach this address: it names this machine or a private network. Set{' '}
              <code>PUBLIC_BASE_URL</code> to the https address the internet reaches Parley at (for example through a
              tunnel or your proxy) and restart.
            </p>
          )}
        </dd>
        <dt>Verify token</dt>
        <dd class="secret">
          {state.verify_token ? (
            <>
              <code data-testid="verify-token">{state.verify_token}</code> <CopyButton text={state.verify_token} />
            </>
          ) : state.verify_token_set ? (
            'Set (only owners and admins see it).'
          ) : (
            <span class="warning-text">
              Not set: set <code>WHATSAPP_VERIFY_TOKEN</code> in Parley's environment and restart, then enter the same
              value in Meta.
            </span>
          )}
        </dd>
        <dt>App secret</dt>
        <dd>
          {state.app_secret_set ? (
            'Set: webhook signatures are checked.'
          ) : (
            <span class="warning-text">
              Not set: set <code>WHATSAPP_APP_SECRET</code> (Meta → App settings → Basic) so Parley can check that
              webhooks come from Meta.
            </span>
          )}
        </dd>
      </dl>
    </section>
  );
}

function TestMessage({ provider }: { provider: Provider }) {
  const [phone, setPhone] = useState('');
  const [text, setText] = useState('Hello from Parley!');
  const [sent, setSent] = useState<{ id: string; status: string } | null>(null);
  const send = useSubmit(async () => {
    setSent(null);
    setSent(await action<{ id: string; status: string }>('send-text-message', { phone, message: text }));
  });
  const windowClosed = send.error instanceof ApiError && send.error.problem.code === 'customer_service_window_closed';

  return (
    <section aria-labelledby="test-title">
      <h2 id="test-title">Send a test message</h2>
      <p class="hint">
        {provider === 'simulator'
          ? 'On the simulator the message is simulated: it is stored and marked delivered, but nothing is sent.'
          : 'Sent through WhatsApp Cloud to a real phone.'}{' '}
        Free-form text reaches only contacts who wrote in during the last 24 hours.
      </p>
      <form class="inline-form" onSubmit={send.onSubmit} aria-label="Send a test message">
        <TextField label="Phone" type="tel" required value={phone} onValue={setPhone} placeholder="+14155550100" />
        <TextField label="Text" required maxLength={4096} value={text} onValue={setText} />
        <button type="submit" disabled={send.busy}>
          Send test message
        </button>
      </form>
      {windowClosed ? (
        <div class="warning" role="alert">
          <p>{(send.error as ApiError).message}</p>
          <p>
            WhatsApp allows free-form text only within 24 hours of the contact's last message. Send them an approved{' '}
            <Link href="/templates">template</Link> instead — a template may start a conversation at any time.
          </p>
        </div>
      ) : (
        <ErrorNote error={send.error} />
      )}
      <p role="status" class="status-line">
        {sent && `Queued (${sent.status}). Message id ${sent.id}.`}
      </p>
    </section>
  );
}
