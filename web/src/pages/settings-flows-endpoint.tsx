import { useId, useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../api/client';
import type { PublicSchema } from '../api/public';
import { CopyButton, ErrorNote, TextField, fieldErrors, useAsync, useSubmit } from '../ui';
import { t } from '../i18n/i18n';
import { formatDateTime } from '../i18n/format';

type Endpoint = ActionAnswer<'get-flows-endpoint'>;
type ScreenAnswer = PublicSchema<'FlowsScreenAnswer'>;

/** What a row's data may name of the contact (Parley's placeholders, as the chatbot flows' are). */
const CONTACT_PLACEHOLDERS = ['{{contact.first_name}}', '{{contact.name}}', '{{contact.phone}}', '{{attributes.city}}'];

/** Who may answer a number's screens, in the order the page offers them. */
const ANSWERERS: Endpoint['answered_by'][] = ['parley', 'business_endpoint'];

/** The screen Meta closes a Flow with: a row leading there ends the Flow. */
const FINISH = 'SUCCESS';

/**
 * Settings → Channel's WhatsApp Flows data endpoint, per number, for people who may manage channels (the
 * API refuses anyone else): the encryption key Meta encrypts to, the URL to paste into WhatsApp Manager,
 * who answers each screen (Parley's screen table or the business's own server), and what Meta reported.
 */
export function FlowsEndpointSettings() {
  const numbers = useAsync(() => action('list-channels', {}), []);
  const withIds = (numbers.data?.channels ?? []).filter((channel) => channel.id);
  const [chosen, setChosen] = useState<string | null>(null);
  const channelId = chosen ?? withIds.find((channel) => channel.is_default)?.id ?? withIds[0]?.id ?? null;
  const pickerId = useId();
  return (
    <section aria-labelledby="flows-endpoint-title">
      <h2 id="flows-endpoint-title">{t('channel:flowsEndpoint.title')}</h2>
      <p class="hint">{t('channel:flowsEndpoint.hint')}</p>
      <ErrorNote error={numbers.error} />
      {numbers.data && withIds.length === 0 && <p>{t('channel:flowsEndpoint.noNumber')}</p>}
      {withIds.length > 1 && (
        <div class="field">
          <label for={pickerId}>{t('channel:flowsEndpoint.number')}</label>
          <select id={pickerId} value={channelId ?? ''} onChange={(e) => setChosen(e.currentTarget.value)}>
            {withIds.map((channel) => (
              <option key={channel.id} value={channel.id!}>
                {channel.display_phone_number ?? channel.phone_number_id}
              </option>
            ))}
          </select>
        </div>
      )}
      {channelId && <NumberEndpoint key={channelId} channelId={channelId} />}
    </section>
  );
}

function NumberEndpoint({ channelId }: { channelId: string }) {
  const endpoint = useAsync(() => action('get-flows-endpoint', { channel_id: channelId }), [channelId]);
  const [shown, setShown] = useState<Endpoint | null>(null);
  const current = shown ?? endpoint.data;
  if (!current) return <ErrorNote error={endpoint.error} />;
  return (
    <>
      <EncryptionKey endpoint={current} onChanged={setShown} />
      <ScreensAnsweredBy endpoint={current} onChanged={setShown} />
      <ErrorNotifications endpoint={current} />
    </>
  );
}

/** The endpoint URL and the key pair: set up, or rotated, with Meta's word on the public key. */
function EncryptionKey({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: (next: Endpoint) => void }) {
  const setUp = useSubmit(async () => {
    onChanged(await action('set-up-flows-encryption', { channel_id: endpoint.channel_id }));
  });
  const keyRegistered = endpoint.key_registered_at && formatDateTime(endpoint.key_registered_at);
  return (
    <>
      <dl class="settings-facts">
        <dt>{t('channel:flowsEndpoint.endpointUrl')}</dt>
        <dd class="secret">
          <code data-testid="flows-endpoint-url">{endpoint.endpoint_url}</code>{' '}
          <CopyButton text={endpoint.endpoint_url} />
          <p class="hint">{t('channel:flowsEndpoint.endpointUrlHint')}</p>
        </dd>
        <dt>{t('channel:flowsEndpoint.key')}</dt>
        <dd data-testid="flows-key-status">
          {t(`channel:flowsEndpoint.keyStatus.${endpoint.key_status}`)}
          {keyRegistered && ` ${t('channel:flowsEndpoint.keyRegistered', { when: keyRegistered })}`}
        </dd>
      </dl>
      <button type="button" disabled={setUp.busy} onClick={() => void setUp.run()}>
        {endpoint.key_status === 'not_set_up'
          ? t('channel:flowsEndpoint.setUpKey')
          : t('channel:flowsEndpoint.rotateKey')}
      </button>
      <ErrorNote error={setUp.error} />
    </>
  );
}

/** Who answers each screen: Parley from its screen table, or the business's own server. */
function ScreensAnsweredBy({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: (next: Endpoint) => void }) {
  const [answeredBy, setAnsweredBy] = useState(endpoint.answered_by);
  const [rows, setRows] = useState(() => endpoint.screen_answers.map(rowOf));
  const [saved, setSaved] = useState(false);
  const save = useSubmit(async () => {
    setSaved(false);
    onChanged(
      await action('set-flows-screen-answers', {
        channel_id: endpoint.channel_id,
        answered_by: answeredBy,
        screen_answers: rows.map(answerOf),
      }),
    );
    setSaved(true);
  });
  const labels = Object.fromEntries(
    rows.flatMap((_, index) => [
      [`screen_answers[${index}].screen`, t('channel:flowsEndpoint.rows.screen', { row: index + 1 })],
      [`screen_answers[${index}].next_screen`, t('channel:flowsEndpoint.rows.nextScreen', { row: index + 1 })],
    ]),
  );
  const problems = fieldErrors(save.error, labels);
  const change = (index: number, field: keyof Row) => (value: string) => {
    setSaved(false);
    setRows((all) => all.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
    save.edited(`screen_answers[${index}].${field}`);
  };
  return (
    <>
      <form onSubmit={save.onSubmit} aria-labelledby="flows-answers-title">
        <h3 id="flows-answers-title">{t('channel:flowsEndpoint.answeredByTitle')}</h3>
        <div class="settings-choices">
          {ANSWERERS.map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={`answered-by-${endpoint.channel_id}`}
                checked={answeredBy === choice}
                onChange={() => {
                  setSaved(false);
                  setAnsweredBy(choice);
                }}
              />{' '}
              {t(`channel:flowsEndpoint.answeredBy.${choice}`)}
            </label>
          ))}
        </div>
        {answeredBy === 'parley' ? (
          <>
            <p class="hint">{t('channel:flowsEndpoint.rows.hint', { finish: FINISH })}</p>
            <ol class="flows-screen-rows" data-testid="flows-screen-rows">
              {rows.map((row, index) => (
                <li key={index}>
                  <div class="form-grid">
                    <TextField
                      label={t('channel:flowsEndpoint.rows.screen', { row: index + 1 })}
                      value={row.screen}
                      onValue={change(index, 'screen')}
                      hint={t('channel:flowsEndpoint.rows.screenHint')}
                      error={problems.field(`screen_answers[${index}].screen`)}
                    />
                    <TextField
                      label={t('channel:flowsEndpoint.rows.nextScreen', { row: index + 1 })}
                      required
                      value={row.next_screen}
                      onValue={change(index, 'next_screen')}
                      hint={t('channel:flowsEndpoint.rows.nextScreenHint', { finish: FINISH })}
                      error={problems.field(`screen_answers[${index}].next_screen`)}
                    />
                  </div>
                  <DataField row={index + 1} value={row.data} onValue={change(index, 'data')} />
                  <button
                    type="button"
                    aria-label={t('channel:flowsEndpoint.rows.removeRow', { row: index + 1 })}
                    onClick={() => {
                      setSaved(false);
                      setRows((all) => all.filter((_, i) => i !== index));
                    }}
                  >
                    {t('channel:flowsEndpoint.rows.remove')}
                  </button>
                </li>
              ))}
            </ol>
            <button type="button" onClick={() => setRows((all) => [...all, { screen: '', next_screen: '', data: '' }])}>
              {t('channel:flowsEndpoint.rows.add')}
            </button>
          </>
        ) : (
          <p class="hint">{t('channel:flowsEndpoint.businessHint')}</p>
        )}
        <ErrorNote error={problems.note} />
        <button class="primary" type="submit" disabled={save.busy}>
          {t('channel:flowsEndpoint.saveAnswers')}
        </button>
        <p role="status" class="status-line">
          {saved ? t('channel:flowsEndpoint.saved') : ''}
        </p>
      </form>
      {answeredBy === 'business_endpoint' && <BusinessEndpoint endpoint={endpoint} onChanged={onChanged} />}
    </>
  );
}

/** A row's data as the person writes it: one `name: value` a line. */
function DataField(props: { row: number; value: string; onValue: (value: string) => void }) {
  const id = useId();
  const hintId = useId();
  return (
    <div class="field">
      <label for={id}>{t('channel:flowsEndpoint.rows.data', { row: props.row })}</label>
      <textarea
        id={id}
        rows={3}
        aria-describedby={hintId}
        value={props.value}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      <small id={hintId} class="hint">
        {t('channel:flowsEndpoint.rows.dataHint', {
          contactPlaceholders: CONTACT_PLACEHOLDERS.join(', '),
          enteredPlaceholder: '{{context.field}}',
        })}
      </small>
    </div>
  );
}

/** The business's own HTTPS endpoint, and its signing secret shown the one time it is made. */
function BusinessEndpoint({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: (next: Endpoint) => void }) {
  const [url, setUrl] = useState(endpoint.business_endpoint_url ?? '');
  const [secret, setSecret] = useState<string | null>(null);
  const label = t('channel:flowsEndpoint.businessUrl');
  const save = useSubmit(async () => {
    const set = await action('set-flows-business-endpoint', { channel_id: endpoint.channel_id, url: url || null });
    setSecret(set.signing_secret);
    onChanged(set);
  });
  return (
    <div class="inline-form" data-testid="flows-business-endpoint">
      <TextField label={label} type="url" value={url} {...save.bind('url', setUrl)} />
      <button type="button" disabled={save.busy} onClick={() => void save.run()}>
        {t('channel:flowsEndpoint.saveBusinessUrl')}
      </button>
      <ErrorNote error={fieldErrors(save.error, { url: label }).note} />
      {secret && (
        <p class="notice" data-testid="flows-signing-secret">
          {t('channel:flowsEndpoint.secretOnce')} <code>{secret}</code> <CopyButton text={secret} />
        </p>
      )}
    </div>
  );
}

/** What Meta's Flow client reported, newest first. */
function ErrorNotifications({ endpoint }: { endpoint: Endpoint }) {
  return (
    <>
      <h3 id="flows-errors-title">{t('channel:flowsEndpoint.errorsTitle')}</h3>
      {endpoint.error_notifications.length === 0 ? (
        <p>{t('channel:flowsEndpoint.noErrors')}</p>
      ) : (
        <ul aria-labelledby="flows-errors-title" data-testid="flows-errors">
          {endpoint.error_notifications.map((notification) => (
            <li key={notification.received_at + notification.error}>
              {t('channel:flowsEndpoint.metaReported', {
                error: notification.error_message ?? notification.error,
                screen: notification.screen ?? '—',
                when: formatDateTime(notification.received_at),
              })}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** A screen-table row as the form edits it: text fields, the data as `name: value` lines. */
interface Row {
  screen: string;
  next_screen: string;
  data: string;
}

function rowOf(answer: ScreenAnswer): Row {
  return {
    screen: answer.screen ?? '',
    next_screen: answer.next_screen,
    data: Object.entries(answer.data)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
  };
}

function answerOf(row: Row): ScreenAnswer {
  const data = Object.fromEntries(
    row.data
      .split('\n')
      .map((line) => line.match(/^\s*([^:]+?)\s*:\s?(.*)$/))
      .filter((match): match is RegExpMatchArray => match !== null)
      .map((match) => [match[1]!, match[2]!]),
  );
  return { screen: row.screen.trim() || null, next_screen: row.next_screen.trim(), data };
}
