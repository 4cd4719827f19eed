import { useState } from 'preact/hooks';
import { ApiError, dashboard } from '../../api';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, TextField, fieldErrors, useSubmit } from '../../ui';
import type { Contact } from './contacts-list';

const LABELS = { phone: 'Phone', name: 'Name', email: 'Email', tags: 'Tags' };

/**
 * Contacts → Add contact, then the new contact's page. A phone that is already a contact's is refused
 * (the dashboard route never updates, unlike create-contact) with a link to that contact.
 */
export function ContactNew() {
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [tags, setTags] = useState('');
  const save = useSubmit(async () => {
    const contact = await dashboard.post<Contact>('contacts', { phone, name, email, tags });
    navigate(`/contacts/${contact.id}`);
  });
  const { field, note } = fieldErrors(save.error, LABELS);
  return (
    <Page title="Add contact" actions={<Link href="/contacts">All contacts</Link>}>
      <form class="settings-form" onSubmit={save.onSubmit} aria-label="Add contact" noValidate>
        <TextField
          label={LABELS.phone}
          type="tel"
          autocomplete="off"
          value={phone}
          onValue={setPhone}
          required
          maxLength={40}
          hint="With the country code, e.g. +44 20 7946 0958"
          error={field('phone')}
        />
        <HolderLink error={save.error} />
        <TextField label={LABELS.name} value={name} onValue={setName} maxLength={256} error={field('name')} />
        <TextField
          label={LABELS.email}
          type="email"
          value={email}
          onValue={setEmail}
          maxLength={320}
          error={field('email')}
        />
        <TextField
          label={LABELS.tags}
          value={tags}
          onValue={setTags}
          maxLength={1000}
          hint="Separated by commas, e.g. vip, newsletter"
          error={field('tags')}
        />
        <ErrorNote error={note} labels={LABELS} />
        <button class="primary" type="submit" disabled={save.busy}>
          Add contact
        </button>
      </form>
    </Page>
  );
}

/** When the phone is already a contact's, the way to that contact. */
function HolderLink({ error }: { error: unknown }) {
  const contactId = error instanceof ApiError ? error.problem.contact_id : undefined;
  if (!contactId) return null;
  return (
    <p>
      <Link href={`/contacts/${contactId}`}>Open that contact</Link>
    </p>
  );
}
