import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api';
import { Link, navigate } from '../../router';
import { can, useSession } from '../../session';
import { TemplateForm } from '../inbox/reply';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { useTagNames, type Contact } from './contacts-list';
import { formatDateTime } from '../../i18n/format';

export interface Run {
  id: string;
  definition_id: string;
  name: string;
  status: string;
  ended_reason: string | null;
  started_at: string;
  updated_at: string;
}

/** GET /api/dashboard/contacts/:id/activity. */
export interface Activity {
  messages: {
    id: string;
    direction: 'inbound' | 'outbound';
    type: string;
    status: string;
    text: string;
    created_at: string;
  }[];
  sequences: Run[];
  flows: Run[];
  /** The campaigns that messaged the contact, newest first, with how far the message got. */
  campaigns: { id: string; name: string; status: string; sent_at: string }[];
}

/** One contact: profile, tags, attributes, the conversation and its automations. */
export function ContactPage({ id }: { id: string }) {
  const contact = useAsync(() => action<Contact>('get-contact', { contact_id: id }), [id]);
  const activity = useAsync(() => dashboard.get<Activity>(`contacts/${id}/activity`), [id]);
  const [shown, setShown] = useState<Contact | undefined>();
  useEffect(() => setShown(contact.data), [contact.data]);
  const title = shown ? (shown.name ?? shown.phone) : 'Contact';
  // The conversation is the inbox's: a role without it gets no messages and no reply form.
  const converses = can(useSession().user, 'conversations');

  return (
    <Page title={title} actions={<Link href="/contacts">All contacts</Link>}>
      <ErrorNote error={contact.error} />
      {shown && (
        <div class="contact-grid">
          <section aria-labelledby="profile-title" class="panel">
            <h2 id="profile-title">Profile</h2>
            <OptOutToggle contact={shown} onSaved={setShown} />
            <ProfileForm contact={shown} onSaved={setShown} />
            <p class="muted">
              Added {formatDateTime(shown.created_at)} · last message {formatDateTime(shown.last_message_at)}
            </p>
          </section>
          <section aria-labelledby="tags-title" class="panel">
            <h2 id="tags-title">Tags</h2>
            <TagEditor contact={shown} onSaved={setShown} />
            <h2 id="attributes-title">Attributes</h2>
            <AttributeEditor contact={shown} onSaved={setShown} />
          </section>
        </div>
      )}
      <ErrorNote error={activity.error} />
      {activity.data && converses && <Conversation contactId={id} messages={activity.data.messages} />}
      {activity.data && <Runs title="Sequences" runs={activity.data.sequences} />}
      {activity.data && <Runs title="Flows" runs={activity.data.flows} />}
    </Page>
  );
}

/** The contact's marketing opt-out, and the button that changes it. */
export function OptOutToggle({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const change = useSubmit(async () => {
    onSaved(await action<Contact>('update-contact', { contact_id: contact.id, opted_out: !contact.opted_out }));
  });
  return (
    <div class="opt-out">
      <p class={contact.opted_out ? 'warning' : 'muted'} data-testid="opt-out-state">
        {contact.opted_out
          ? 'Opted out of marketing: campaigns, sequences and marketing templates skip this contact.'
          : 'Subscribed to marketing messages.'}
      </p>
      <button type="button" disabled={change.busy} onClick={() => void change.run()}>
        {contact.opted_out ? 'Opt back in to marketing' : 'Opt out of marketing'}
      </button>
      <ErrorNote error={change.error} />
    </div>
  );
}

function ProfileForm({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const [name, setName] = useState(contact.name ?? '');
  const [phone, setPhone] = useState(contact.phone);
  const [email, setEmail] = useState(contact.email ?? '');
  const [saved, setSaved] = useState(false);
  const save = useSubmit(async () => {
    setSaved(false);
    onSaved(await action<Contact>('update-contact', { contact_id: contact.id, name, phone, email }));
    setSaved(true);
  });
  return (
    <form onSubmit={save.onSubmit} aria-label="Edit contact">
      <TextField label="Name" value={name} {...save.bind('name', setName)} maxLength={256} />
      <TextField label="Phone" value={phone} {...save.bind('phone', setPhone)} required maxLength={40} />
      <TextField label="Email" type="email" value={email} {...save.bind('email', setEmail)} maxLength={320} />
      <ErrorNote error={save.error} />
      <button class="primary" type="submit" disabled={save.busy}>
        Save
      </button>{' '}
      <span role="status">{saved ? 'Saved.' : ''}</span>
    </form>
  );
}

/** The contact's tags, each removable, and a field that adds one (existing tags suggested). */
export function TagEditor({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const names = useTagNames();
  const [tag, setTag] = useState('');
  const add = useSubmit(async () => {
    onSaved(await action<Contact>('add-tag', { contact_id: contact.id, tag }));
    setTag('');
  });
  const [removeError, setRemoveError] = useState<unknown>(null);
  const removeTag = async (name: string) => {
    setRemoveError(null);
    try {
      onSaved(await action<Contact>('remove-tag', { contact_id: contact.id, tag: name }));
    } catch (error) {
      setRemoveError(error);
    }
  };
  return (
    <>
      {contact.tags.length === 0 ? (
        <p class="muted">No tags.</p>
      ) : (
        <ul class="tag-list">
          {contact.tags.map((name) => (
            <li key={name}>
              <span class="tag">{name}</span>
              <button type="button" aria-label={`Remove tag ${name}`} onClick={() => void removeTag(name)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={add.onSubmit} aria-label="Add a tag">
        <div class="field">
          <label for="contact-add-tag">New tag</label>
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
          Add tag
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
    onSaved(await action<Contact>('update-contact', { contact_id: contact.id, metadata }));
  const add = useSubmit(async () => {
    await patch({ [key.trim()]: value });
    setKey('');
    setValue('');
  });
  const entries = Object.entries(contact.custom_attributes);
  return (
    <>
      {entries.length === 0 ? (
        <p class="muted">No attributes.</p>
      ) : (
        <dl class="attributes">
          {entries.map(([name, content]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                {typeof content === 'string' ? content : JSON.stringify(content)}{' '}
                <button
                  type="button"
                  aria-label={`Remove attribute ${name}`}
                  onClick={() => void patch({ [name]: null })}
                >
                  ×
                </button>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <form class="inline-form" onSubmit={add.onSubmit} aria-label="Set an attribute">
        <TextField label="Attribute" value={key} onValue={setKey} required maxLength={64} />
        <TextField label="Value" value={value} onValue={setValue} maxLength={1000} />
        <button type="submit" disabled={add.busy}>
          Set
        </button>
      </form>
      <ErrorNote error={add.error} />
    </>
  );
}

function Conversation({ contactId, messages }: { contactId: string; messages: Activity['messages'] }) {
  const [templateOpen, setTemplateOpen] = useState(false);
  return (
    <section aria-labelledby="conversation-title" class="panel">
      <div class="panel-header">
        <h2 id="conversation-title">Conversation</h2>
        <div class="page-actions">
          <Link class="button" href={`/inbox/${contactId}`}>
            {messages.length === 0 ? 'Start a conversation' : 'Open in the inbox'}
          </Link>
          <button type="button" aria-expanded={templateOpen} onClick={() => setTemplateOpen(!templateOpen)}>
            Send a template
          </button>
        </div>
      </div>
      {templateOpen && <TemplateForm contactId={contactId} onSent={() => navigate(`/inbox/${contactId}`)} />}
      {messages.length === 0 ? (
        <p class="muted">No messages yet.</p>
      ) : (
        <ol class="conversation">
          {messages.map((message) => (
            <li key={message.id} class={`bubble ${message.direction}`}>
              <span class="visually-hidden">{message.direction === 'inbound' ? 'Received: ' : 'Sent: '}</span>
              {message.text}
              <small class="muted">
                {' '}
                {formatDateTime(message.created_at)} · {message.status}
              </small>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Runs({ title, runs }: { title: string; runs: Run[] }) {
  const id = `runs-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} class="panel">
      <h2 id={id}>{title}</h2>
      {runs.length === 0 ? (
        <p class="muted">Not in any {title.toLowerCase()}.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id}>
                  <td>{run.name}</td>
                  <td>
                    {run.status}
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
