import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { action, dashboard, type DashboardAnswer } from '../api/client';
import type { PublicSchema } from '../api/public';
import { Link } from '../router';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../ui';
import { t } from '../i18n/i18n';
import { formatDateTime } from '../i18n/format';
import { Rich } from '../i18n/rich';
import { useLiveReload } from './inbox/events';
import { messageStatusName } from './message-status';

/** Whom the simulator writes as: a contact found, or the one a message came from. */
type Contact = Pick<PublicSchema<'Contact'>, 'id' | 'phone' | 'name'>;
type Message = DashboardAnswer<'/api/dashboard/simulator/messages'>['messages'][number];

/** While a conversation is open, replies (flows, sequences, teammates) show up within this long. */
const REFRESH_MS = 3000;

/** The Simulator: write in as any contact, and watch what Parley answers. */
export function Simulator() {
  const channel = useAsync(() => dashboard.get('/api/dashboard/channel'), []);
  const [contact, setContact] = useState<Contact | null>(null);
  const cloud = channel.data?.channel.provider === 'whatsapp-cloud';

  return (
    <Page title={t('simulator:title')}>
      <p>{t('simulator:intro')}</p>
      {cloud && (
        <p class="warning">
          <Rich
            text={t('simulator:cloud')}
            parts={{ link: (words) => <Link href="/settings/channel">{words}</Link> }}
          />
        </p>
      )}
      <div class="simulator">
        <InboundForm contact={contact} onContact={setContact} />
        {contact && <ConversationView key={contact.id} contact={contact} />}
      </div>
    </Page>
  );
}

function InboundForm({ contact, onContact }: { contact: Contact | null; onContact: (c: Contact | null) => void }) {
  const [phone, setPhone] = useState('');
  const [text, setText] = useState('');
  const textId = useId();
  const [sent, setSent] = useState(0);
  // The kind the last share button asked for (read by `share`, which runs in the same click).
  const extra = useRef<Extra | null>(null);
  /** Sends what the contact wrote or shared, and follows the contact it came from. */
  const deliver = async (what: object) => {
    const message = await action('simulate-inbound-message', {
      phone: contact?.phone ?? phone,
      ...what,
    });
    if (contact?.id !== message.contact_id) {
      onContact({ id: message.contact_id, phone: message.contact_phone, name: contact?.name ?? null });
    }
    setSent((n) => n + 1);
  };
  const send = useSubmit(async () => {
    await deliver({ text });
    setText('');
  });
  const share = useSubmit(async () => {
    if (extra.current) await deliver(EXTRAS[extra.current].body);
  });

  return (
    <form class="simulator-form" onSubmit={send.onSubmit} aria-labelledby="inbound-title">
      <h2 id="inbound-title">{t('simulator:inbound.title')}</h2>
      {contact ? (
        <p class="chosen">
          <Rich text={t('simulator:inbound.from', { contact: contact.name ?? contact.phone })} />{' '}
          {contact.name && <span>{t('simulator:inbound.phone', { phone: contact.phone })}</span>}{' '}
          <button type="button" onClick={() => onContact(null)}>
            {t('simulator:inbound.changeContact')}
          </button>
        </p>
      ) : (
        <ContactPicker phone={phone} onPhone={setPhone} onPick={onContact} />
      )}
      <div class="field">
        <label for={textId}>{t('simulator:inbound.message')}</label>
        <textarea
          id={textId}
          required
          maxLength={4096}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          placeholder={t('simulator:inbound.messagePlaceholder')}
        />
      </div>
      <button class="primary" type="submit" disabled={send.busy}>
        {t('simulator:inbound.send')}
      </button>
      <fieldset class="plain sim-extras">
        <legend>{t('simulator:inbound.share')}</legend>
        {(Object.keys(EXTRAS) as Extra[]).map((kind) => (
          <button
            key={kind}
            type="button"
            disabled={share.busy}
            onClick={() => {
              extra.current = kind;
              void share.run();
            }}
          >
            {t(`simulator:extras.${kind}`)}
          </button>
        ))}
      </fieldset>
      <ErrorNote error={send.error ?? share.error} />
      <p role="status" class="status-line">
        {sent > 0 && !send.busy && !share.busy && !send.error && !share.error ? t('simulator:inbound.received') : ''}
      </p>
    </form>
  );
}

/**
 * What a simulated contact can share besides text: the sample files Parley ships (stored like files
 * from Meta), a location and a contact card, so the inbox shows every kind without WhatsApp. What the
 * customer writes (captions, names) is the sample's, not the dashboard's words; each button's label is
 * `simulator:extras.<kind>`.
 */
const EXTRAS = {
  image: { body: { media: 'image', caption: 'Like these, but in red?' } },
  document: { body: { media: 'document', caption: 'My order' } },
  audio: { body: { media: 'audio' } },
  location: {
    body: { location: { latitude: 52.5219, longitude: 13.4132, name: 'Alexanderplatz', address: '10178 Berlin' } },
  },
  contact: { body: { contact_card: { name: 'Ada Lovelace', phone: '+447911123456' } } },
} as const;
type Extra = keyof typeof EXTRAS;

/** Search as you type; choosing a contact writes as them, otherwise the text is taken as a phone number. */
function ContactPicker(props: { phone: string; onPhone: (phone: string) => void; onPick: (c: Contact) => void }) {
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(props.phone.trim()), 250);
    return () => clearTimeout(timer);
  }, [props.phone]);
  const matches = useAsync(() => (query ? action('search-contacts', { query }) : Promise.resolve([])), [query]);
  const found = matches.data ?? [];

  return (
    <>
      <TextField
        label={t('simulator:picker.label')}
        type="search"
        required
        autoComplete="off"
        value={props.phone}
        onValue={props.onPhone}
        placeholder={t('simulator:picker.placeholder')}
        hint={t('simulator:picker.hint')}
      />
      {found.length > 0 && (
        <ul class="pick-list" aria-label={t('simulator:picker.matches')}>
          {found.slice(0, 8).map((c) => (
            <li key={c.id}>
              <button type="button" onClick={() => props.onPick(c)}>
                {c.name ? `${c.name} · ${c.phone}` : c.phone}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="visually-hidden" role="status">
        {query && !matches.loading ? t('simulator:picker.found', { count: found.length }) : ''}
      </p>
    </>
  );
}

/**
 * The conversation with a simulated contact, live (the inbox's event stream, and a poll as a fallback):
 * its bubbles, and the buttons and rows the bot offered, which the contact taps. The flow builder's
 * "Try it" shows it too.
 */
export function ConversationView({ contact }: { contact: Contact }) {
  const conversation = useAsync(
    () => dashboard.get('/api/dashboard/simulator/messages', { query: { contact_id: contact.id } }),
    [contact.id],
  );
  const { reload } = conversation;
  useLiveReload(reload, (event) => 'contact_id' in event && event.contact_id === contact.id);
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const [tapError, setTapError] = useState<unknown>(null);
  const tap = async (choice: Choice) => {
    setTapError(null);
    try {
      await action('simulate-inbound-message', { phone: contact.phone, [choice.kind]: choice.reply });
      reload();
    } catch (error) {
      setTapError(error);
    }
  };
  const messages = conversation.data?.messages ?? [];

  return (
    <section class="sim-conversation" aria-labelledby="conversation-title">
      <div class="sim-conversation-header">
        <h2 id="conversation-title">{t('simulator:conversation.title')}</h2>
        <button type="button" onClick={reload}>
          {t('simulator:conversation.refresh')}
        </button>
      </div>
      <ErrorNote error={conversation.error ?? tapError} />
      {messages.length === 0 && !conversation.loading && <p class="muted">{t('simulator:conversation.none')}</p>}
      <ol class="sim-bubbles" aria-live="polite" aria-label={t('simulator:conversation.messages')}>
        {messages.map((message) => (
          <li key={message.id} class={`sim-bubble ${message.direction}`}>
            <span class="visually-hidden">
              {message.direction === 'inbound'
                ? t('simulator:conversation.fromContact')
                : t('simulator:conversation.fromParley')}{' '}
            </span>
            <span class="sim-bubble-text">{summary(message)}</span>
            <Choices message={message} onTap={(choice) => void tap(choice)} />
            <small class="sim-bubble-meta">
              {formatDateTime(message.created_at)}
              {message.direction === 'outbound' && ` · ${messageStatusName(message.status)}`}
            </small>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A reply button or list row the bot offered; tapping it sends Meta's `button_reply` / `list_reply`. */
interface Choice {
  kind: 'button_reply' | 'list_reply';
  reply: { id: string; title: string; description?: string };
}

interface Interactive {
  action?: {
    button?: unknown;
    buttons?: { reply?: { id?: unknown; title?: unknown } }[];
    sections?: { rows?: { id?: unknown; title?: unknown; description?: unknown }[] }[];
  };
}

/** The buttons and list rows of a message the bot sent, as buttons the simulated contact can tap. */
function Choices({ message, onTap }: { message: Message; onTap: (choice: Choice) => void }) {
  const choices = message.direction === 'outbound' ? choicesOf(message.content.interactive as Interactive) : [];
  if (choices.length === 0) return null;
  const list = choices[0]!.kind === 'list_reply';
  const menu = (message.content.interactive as Interactive).action?.button;
  return (
    <span
      class="sim-bubble-buttons"
      role="group"
      aria-label={list ? t('simulator:choices.list', { menu: String(menu) }) : t('simulator:choices.buttons')}
    >
      {choices.map((choice) => (
        <button key={choice.reply.id} type="button" onClick={() => onTap(choice)}>
          {choice.reply.title}
          {choice.reply.description && <small> — {choice.reply.description}</small>}
        </button>
      ))}
    </span>
  );
}

function choicesOf(interactive: Interactive | undefined): Choice[] {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const buttons = (interactive?.action?.buttons ?? []).flatMap(({ reply }): Choice[] => {
    const [id, title] = [text(reply?.id), text(reply?.title)];
    return id && title ? [{ kind: 'button_reply', reply: { id, title } }] : [];
  });
  const rows = (interactive?.action?.sections ?? []).flatMap((section) =>
    (section.rows ?? []).flatMap((row): Choice[] => {
      const [id, title, description] = [text(row.id), text(row.title), text(row.description)];
      return id && title ? [{ kind: 'list_reply', reply: { id, title, ...(description && { description }) } }] : [];
    }),
  );
  return [...buttons, ...rows];
}

const TYPES = ['image', 'video', 'audio', 'document', 'sticker', 'reaction', 'interactive'] as const;

/** A message's type in words (an unknown one as Meta names it). */
const typeName = (type: string): string =>
  TYPES.includes(type as (typeof TYPES)[number]) ? t(`simulator:types.${type as (typeof TYPES)[number]}`) : type;

/** A message's words, whatever its type: text, buttons, template or media caption. */
function summary(message: Message): string {
  const c = message.content;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const interactive = c.interactive as { body?: { text?: unknown } } | undefined;
  const reply = (c.button_reply ?? c.list_reply) as { title?: unknown } | undefined;
  return (
    text(c.body) ??
    text(interactive?.body?.text) ??
    text(c.caption) ??
    text(reply?.title) ??
    (message.type === 'template' ? t('simulator:summary.template', { name: text(c.template_name) ?? '?' }) : null) ??
    (message.type === 'location'
      ? t('simulator:summary.location', { place: text(c.name) ?? `${String(c.latitude)}, ${String(c.longitude)}` })
      : null) ??
    (message.type === 'contacts' ? t('simulator:summary.contactCard') : null) ??
    t('simulator:summary.other', { type: typeName(message.type) })
  );
}
