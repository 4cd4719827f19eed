import { useState } from 'preact/hooks';
import { action } from '../../api';
import { Link } from '../../router';
import { ConfirmButton, ErrorNote, Page, TextField, Table, fieldErrors, useAsync, useSubmit } from '../../ui';

interface Tag {
  id: string;
  name: string;
}

/** Contacts → Tags: every tag, renamed or deleted in place (rename-tag, delete-tag). */
export function TagsPage() {
  const tags = useAsync(() => action<Tag[]>('list-tags', { name: '' }), []);
  const [done, setDone] = useState('');
  const changed = (message: string) => {
    setDone(message);
    tags.reload();
  };
  return (
    <Page title="Tags" actions={<Link href="/contacts">All contacts</Link>}>
      <p class="muted">
        Renaming keeps the tag on its contacts. Sequences, flows and campaigns that name a tag are not changed: edit
        them too.
      </p>
      <ErrorNote error={tags.error} />
      <p role="status" class="muted">
        {done}
      </p>
      {tags.data?.length === 0 && <p class="empty">No tags yet: tag contacts on their page, in bulk or by import.</p>}
      {tags.data && tags.data.length > 0 && (
        <Table caption="Tags" columns={['Name']} actions>
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
    await action<Tag>('rename-tag', { tag: tag.name, name });
    setEditing(false);
    onChanged(`Renamed ${tag.name} to ${name.trim()}.`);
  });
  const { field, note } = fieldErrors(rename.error, { name: 'New name' });
  return (
    <tr>
      <td>
        {editing ? (
          <form class="inline-form" aria-label={`Rename ${tag.name}`} onSubmit={rename.onSubmit} noValidate>
            <TextField label="New name" value={name} onValue={setName} maxLength={64} error={field('name')} />
            <button type="submit" class="primary" disabled={rename.busy}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <ErrorNote error={note} />
          </form>
        ) : (
          <Link href={`/contacts?tag=${encodeURIComponent(tag.name)}`}>{tag.name}</Link>
        )}
      </td>
      <td>
        {!editing && (
          <button type="button" aria-label={`Rename ${tag.name}`} onClick={() => setEditing(true)}>
            Rename
          </button>
        )}{' '}
        <ConfirmButton
          label="Delete"
          question={`Delete the tag ${tag.name}? Every contact loses it; the contacts stay.`}
          confirmLabel="Delete tag"
          danger
          onConfirm={async () => {
            await action('delete-tag', { tag: tag.name });
            onChanged(`Deleted ${tag.name}.`);
          }}
        />
      </td>
    </tr>
  );
}
