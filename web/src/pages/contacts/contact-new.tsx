import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { dashboard } from '../../api/client';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, TextField, fieldErrors, useSubmit } from '../../ui';
import { t } from '../../i18n/i18n';

/** The form's fields by their API names, as its labels name them (and its errors name the fields). */
const labels = () => ({
  phone: t('contacts:fields.phone'),
  name: t('contacts:fields.name'),
  email: t('contacts:fields.email'),
  tags: t('contacts:fields.tags'),
});

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
    const contact = await dashboard.post('/api/dashboard/contacts', { body: { phone, name, email, tags } });
    navigate(`/contacts/${contact.id}`);
  });
  const fieldLabels = labels();
  const { field, note } = fieldErrors(save.error, fieldLabels);
  return (
    <Page title={t('contacts:new.title')} actions={<Link href="/contacts">{t('contacts:allContacts')}</Link>}>
      <form class="settings-form" onSubmit={save.onSubmit} aria-label={t('contacts:new.title')} noValidate>
        <TextField
          label={fieldLabels.phone}
          type="tel"
          autocomplete="off"
          value={phone}
          onValue={setPhone}
          required
          maxLength={40}
          hint={t('contacts:new.phoneHint')}
          error={field('phone')}
        />
        <HolderLink error={save.error} />
        <TextField label={fieldLabels.name} value={name} onValue={setName} maxLength={256} error={field('name')} />
        <TextField
          label={fieldLabels.email}
          type="email"
          value={email}
          onValue={setEmail}
          maxLength={320}
          error={field('email')}
        />
        <TextField
          label={fieldLabels.tags}
          value={tags}
          onValue={setTags}
          maxLength={1000}
          hint={t('contacts:new.tagsHint')}
          error={field('tags')}
        />
        <ErrorNote error={note} labels={fieldLabels} />
        <button class="primary" type="submit" disabled={save.busy}>
          {t('contacts:new.submit')}
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
      <Link href={`/contacts/${contactId}`}>{t('contacts:new.openHolder')}</Link>
    </p>
  );
}
