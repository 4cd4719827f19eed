import { useState } from 'preact/hooks';
import { action } from '../../api';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, TextField, fieldErrors, useSubmit } from '../../ui';
import type { Contact } from './contacts-list';

const LABELS = { phone: 'Phone', name: 'Name', email: 'Email', tags: 'Tags' };

/** Contacts → Add contact: create-contact, then the new contact's page (an existing phone opens that contact). */
export function ContactNew() {
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [tags, setTags] = useState('');
  const save = useSubmit(async () => {
    const contact = await action<Contact>('create-contact', { phone, name, email, tags });
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
