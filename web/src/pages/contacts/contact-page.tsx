import { useEffect, useState } from 'preact/hooks';
import { action, dashboard, type DashboardAnswer } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { Link, navigate } from '../../router';
import { can, useSession } from '../../session';
import { TemplateForm } from '../inbox/template-form';
import { FlowForm } from '../inbox/flow-form';
import { ContactForms } from '../whatsapp-flows/contact-forms';
import { formatDateTime } from '../../i18n/format';
import { messageStatusName } from '../message-status';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { useTagNames } from './contacts-list';

/** A contact, as the public API answers it. */
export type Contact = PublicSchema<'Contact'>;
/** What the contact's activity shows: messages, automations and campaigns. */
export type Activity = DashboardAnswer<'/api/dashboard/contacts/{id}/activity'>;
/** One flow run or sequence enrolment. */
export type Run = Activity['flows'][number];

/** One contact: profile, tags, attributes, the conversation and its automations. */
export function ContactPage({ id }: { id: string }) {
  const contact = useAsync(() => action('get-contact', { contact_id: id }), [id]);
  const activity = useAsync(() => dashboard.get('/api/dashboard/contacts/{id}/activity', { path: { id } }), [id]);
  const [shown, setShown] = useState<Contact | undefined>();
  useEffect(() => setShown(contact.data), [contact.data]);
  const title = shown ? (shown.name ?? shown.phone) : t('contacts:contact.title');
  // The conversation is the inbox's: a role without it gets no messages and no reply form.
  const converses = can(useSession().user, 'conversations');

  return (
    <Page title={title} actions={<Link href="/contacts">{t('contacts:allContacts')}</Link>}>
      <ErrorNote error={contact.error} />
      {shown && (
        <div class="contact-grid">
          <section aria-labelledby="profile-title" class="panel">
            <h2 id="profile-title">{t('contacts:contact.profile')}</h2>
            <OptOutToggle contact={shown} onSaved={setShown} />
            <CallPermissionState contact={shown} />
            <ProfileForm contact={shown} onSaved={setShown} />
            <p class="muted">
              {t('contacts:contact.dates', {
                added: formatDateTime(shown.created_at),
                last: formatDateTime(shown.last_message_at),
              })}
            </p>
          </section>
          <section aria-labelledby="tags-title" class="panel">
            <h2 id="tags-title">{t('contacts:contact.tags')}</h2>
            <TagEditor contact={shown} onSaved={setShown} />
            <h2 id="attributes-title">{t('contacts:contact.attributes')}</h2>
            <AttributeEditor contact={shown} onSaved={setShown} />
          </section>
        </div>
      )}
      <ErrorNote error={activity.error} />
      {activity.data && converses && <Conversation contactId={id} messages={activity.data.messages} />}
      {activity.data && <Runs kind="sequences" runs={activity.data.sequences} />}
      {activity.data && <Runs kind="flows" runs={activity.data.flows} />}
      <ContactForms contactId={id} />
    </Page>
  );
}

/** The contact's marketing opt-out, and the button that changes it. */
export function OptOutToggle({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const change = useSubmit(async () => {
    onSaved(await action('update-contact', { contact_id: contact.id, opted_out: !contact.opted_out }));
  });
  return (
    <div class="opt-out">
      <p class={contact.opted_out ? 'warning' : 'muted'} data-testid="opt-out-state">
        {contact.opted_out ? t('contacts:contact.optedOut') : t('contacts:contact.subscribed')}
      </p>
      <button type="button" disabled={change.busy} onClick={() => void change.run()}>
        {contact.opted_out ? t('contacts:contact.optBackIn') : t('contacts:contact.optOut')}
      </button>
      <ErrorNote error={change.error} />
    </div>
  );
}

/** Whether the contact allows the business to call them on WhatsApp: their latest answer to a permission request. */
function CallPermissionState({ contact }: { contact: Contact }) {
  const permission = contact.call_permission;
  if (!permission) return null;
  const state =
    permission.response === 'reject'
      ? t('contacts:contact.calls.declined')
      : permission.permanent || !permission.expires_at
        ? t('contacts:contact.calls.allowed')
        : t('contacts:contact.calls.allowedUntil', { until: formatDateTime(permission.expires_at) });
  return (
    <p class="muted" data-testid="call-permission">
      {state} {t('contacts:contact.calls.answered', { at: formatDateTime(permission.answered_at) })}
    </p>
  );
}

function ProfileForm({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const [name, setName] = useState(contact.name ?? '');
  const [phone, setPhone] = useState(contact.phone);
  const [email, setEmail] = useState(contact.email ?? '');
  const [saved, setSaved] = useState(false);
  const save = useSubmit(async () => {
    setSaved(false);
    onSaved(await action('update-contact', { contact_id: contact.id, name, phone, email }));
    setSaved(true);
  });
  return (
    <form onSubmit={save.onSubmit} aria-label={t('contacts:contact.editForm')}>
      <TextField label={t('contacts:fields.name')} value={name} {...save.bind('name', setName)} maxLength={256} />
      <TextField
        label={t('contacts:fields.phone')}
        value={phone}
        {...save.bind('phone', setPhone)}
        required
        maxLength={40}
      />
      <TextField
        label={t('contacts:fields.email')}
        type="email"
        value={email}
        {...save.bind('email', setEmail)}
        maxLength={320}
      />
      <ErrorNote error={save.error} />
      <button class="primary" type="submit" disabled={save.busy}>
        {t('contacts:save')}
      </button>{' '}
      <span role="status">{saved ? t('contacts:contact.saved') : ''}</span>
    </form>
  );
}

/** The contact's tags, each removable, and a field that adds one (existing tags suggested). */
export function TagEditor({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const names = useTagNames();
  const [tag, setTag] = useState('');
  const add = useSubmit(async () => {
    onSaved(await action('add-tag', { contact_id: contact.id, tag }));
    setTag('');
  });
  const [removeError, setRemoveError] = useState<unknown>(null);
  const removeTag = async (name: string) => {
    setRemoveError(null);
    try {
      onSaved(await action('remove-tag', { contact_id: contact.id, tag: name }));
    } catch (error) {
      setRemoveError(error);
    }
  };
  return (
    <>
      {contact.tags.length === 0 ? (
        <p class="muted">{t('contacts:contact.noTags')}</p>
      ) : (
        <ul class="tag-list">
          {contact.tags.map((name) => (
            <li key={name}>
              <span class="tag">{name}</span>
              <button
                type="button"
                aria-label={t('contacts:contact.removeTag', { name })}
                onClick={() => void removeTag(name)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={add.onSubmit} aria-label={t('contacts:contact.addTagForm')}>
        <div class="field">
          <label for="contact-add-tag">{t('contacts:contact.newTag')}</label>
          <input
            id="contact-add-tag"
            list="contact-tag-names"
            required
            maxLength={64}
            value={tag}
            onInput={(e) => setTag(e.currentTarget.value)}
          />
          <datalist id="contact-tag-names">
            {names.data?.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </div>
        <button type="submit" disabled={add.busy}>
          {t('contacts:contact.addTag')}
        </button>
      </form>
      <ErrorNote error={add.error ?? removeError} />
    </>
  );
}

function AttributeEditor({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const patch = async (metadata: Record<string, unknown>) =>
    onSaved(await action('update-contact', { contact_id: contact.id, metadata }));
  const add = useSubmit(async () => {
    await patch({ [key.trim()]: value });
    setKey('');
    setValue('');
  });
  const entries = Object.entries(contact.custom_attributes);
  return (
    <>
      {entries.length === 0 ? (
        <p class="muted">{t('contacts:contact.noAttributes')}</p>
      ) : (
        <dl class="attributes">
          {entries.map(([name, content]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                {typeof content === 'string' ? content : JSON.stringify(content)}{' '}
                <button
                  type="button"
                  aria-label={t('contacts:contact.removeAttribute', { name })}
                  onClick={() => void patch({ [name]: null })}
                >
                  ×
                </button>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <form class="inline-form" onSubmit={add.onSubmit} aria-label={t('contacts:contact.setAttributeForm')}>
        <TextField label={t('contacts:contact.attribute')} value={key} onValue={setKey} required maxLength={64} />
        <TextField label={t('contacts:contact.value')} value={value} onValue={setValue} maxLength={1000} />
        <button type="submit" disabled={add.busy}>
          {t('contacts:contact.set')}
        </button>
      </form>
      <ErrorNote error={add.error} />
    </>
  );
}

function Conversation({ contactId, messages }: { contactId: string; messages: Activity['messages'] }) {
  const [templateOpen, setTemplateOpen] = useState(false);
  const [flowOpen, setFlowOpen] = useState(false);
  return (
    <section aria-labelledby="conversation-title" class="panel">
      <div class="panel-header">
        <h2 id="conversation-title">{t('contacts:contact.conversation')}</h2>
        <div class="page-actions">
          <Link class="button" href={`/inbox/${contactId}`}>
            {messages.length === 0 ? t('contacts:contact.startConversation') : t('contacts:contact.openInInbox')}
          </Link>
          <button type="button" aria-expanded={templateOpen} onClick={() => setTemplateOpen(!templateOpen)}>
            {t('contacts:contact.sendTemplate')}
          </button>
          <button type="button" aria-expanded={flowOpen} onClick={() => setFlowOpen(!flowOpen)}>
            {t('contacts:contact.sendFlow')}
          </button>
        </div>
      </div>
      {templateOpen && <TemplateForm to={{ contact_id: contactId }} onSent={() => navigate(`/inbox/${contactId}`)} />}
      {flowOpen && <FlowForm contactId={contactId} onSent={() => navigate(`/inbox/${contactId}`)} />}
      {messages.length === 0 ? (
        <p class="muted">{t('contacts:contact.noMessages')}</p>
      ) : (
        <ol class="conversation">
          {messages.map((message) => (
            <li key={message.id} class={`bubble ${message.direction}`}>
              <span class="visually-hidden">
                {message.direction === 'inbound' ? t('contacts:contact.received') : t('contacts:contact.sent')}
              </span>
              {message.text}
              <small class="muted">
                {' '}
                {formatDateTime(message.created_at)} · {messageStatusName(message.status)}
              </small>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

type RunState = keyof (typeof import('../../locales/en/contacts.json'))['runs']['state'];

/** The contact's runs of sequences or of flows, with their state (the reason a run ended as recorded). */
function Runs({ kind, runs }: { kind: 'sequences' | 'flows'; runs: Run[] }) {
  const id = `runs-${kind}`;
  return (
    <section aria-labelledby={id} class="panel">
      <h2 id={id}>{t(`contacts:runs.${kind}`)}</h2>
      {runs.length === 0 ? (
        <p class="muted">{kind === 'sequences' ? t('contacts:runs.noSequences') : t('contacts:runs.noFlows')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('contacts:runs.name')}</th>
                <th scope="col">{t('contacts:runs.status')}</th>
                <th scope="col">{t('contacts:runs.started')}</th>
                <th scope="col">{t('contacts:runs.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id}>
                  <td>{run.name}</td>
                  <td>
                    {t(`contacts:runs.state.${run.status as RunState}`, { defaultValue: run.status })}
                    {run.ended_reason ? ` (${run.ended_reason})` : ''}
                  </td>
                  <td class="nowrap">{formatDateTime(run.started_at)}</td>
                  <td class="nowrap">{formatDateTime(run.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
