import { useState } from 'preact/hooks';
import { action } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { Link } from '../../router';
import { t } from '../../i18n/i18n';
import { ConfirmButton, ErrorNote, Page, TextField, Table, fieldErrors, useAsync, useSubmit } from '../../ui';

type Tag = PublicSchema<'Tag'>;

/** Contacts → Tags: every tag, renamed or deleted in place (rename-tag, delete-tag). */
export function TagsPage() {
  const tags = useAsync(() => action('list-tags', { name: '' }), []);
  const [done, setDone] = useState('');
  const changed = (message: string) => {
    setDone(message);
    tags.reload();
  };
  return (
    <Page title={t('contacts:tags.title')} actions={<Link href="/contacts">{t('contacts:allContacts')}</Link>}>
      <p class="muted">{t('contacts:tags.intro')}</p>
      <ErrorNote error={tags.error} />
      <p role="status" class="muted">
        {done}
      </p>
      {tags.data?.length === 0 && <p class="empty">{t('contacts:tags.empty')}</p>}
      {tags.data && tags.data.length > 0 && (
        <Table caption={t('contacts:tags.caption')} columns={[t('contacts:tags.name')]} actions>
          {tags.data.map((tag) => (
            <TagRow key={tag.id} tag={tag} onChanged={changed} />
          ))}
        </Table>
      )}
    </Page>
  );
}

function TagRow({ tag, onChanged }: { tag: Tag; onChanged: (message: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(tag.name);
  const rename = useSubmit(async () => {
    await action('rename-tag', { tag: tag.name, name });
    setEditing(false);
    onChanged(t('contacts:tags.renamed', { from: tag.name, to: name.trim() }));
  });
  const { field, note } = fieldErrors(rename.error, { name: t('contacts:tags.newName') });
  return (
    <tr>
      <td>
        {editing ? (
          <form
            class="inline-form"
            aria-label={t('contacts:tags.renameForm', { name: tag.name })}
            onSubmit={rename.onSubmit}
            noValidate
          >
            <TextField
              label={t('contacts:tags.newName')}
              value={name}
              onValue={setName}
              maxLength={64}
              error={field('name')}
            />
            <button type="submit" class="primary" disabled={rename.busy}>
              {t('contacts:save')}
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              {t('contacts:cancel')}
            </button>
            <ErrorNote error={note} />
          </form>
        ) : (
          <Link href={`/contacts?tag=${encodeURIComponent(tag.name)}`}>{tag.name}</Link>
        )}
      </td>
      <td>
        {!editing && (
          <button
            type="button"
            aria-label={t('contacts:tags.renameForm', { name: tag.name })}
            onClick={() => setEditing(true)}
          >
            {t('contacts:tags.rename')}
          </button>
        )}{' '}
        <ConfirmButton
          label={t('contacts:tags.delete')}
          question={t('contacts:tags.deleteQuestion', { name: tag.name })}
          confirmLabel={t('contacts:tags.deleteConfirm')}
          danger
          onConfirm={async () => {
            await action('delete-tag', { tag: tag.name });
            onChanged(t('contacts:tags.deleted', { name: tag.name }));
          }}
        />
      </td>
    </tr>
  );
}
