import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import { Link } from '../../router';
import { counted, formatDateTime, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, useAsync, useSubmit } from '../../ui';

interface Paging {
  filter: string;
  before: (string | null)[];
  cursor: string | null;
}

const PAGE_SIZE = 100;
const SEARCH_DELAY_MS = 250;

/** A value that follows `value` once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The workspace's tag names, alphabetical (list-tags). */
export function useTagNames() {
  return useAsync(async () => (await action('list-tags', { name: '' })).map((t) => t.name), []);
}

/** The search and the tag a list shows, as the address and the API name them. */
function filterOf(query: string, tag: string): { query?: string; tag?: string } {
  return { ...(query.trim() && { query: query.trim() }), ...(tag && { tag }) };
}

/**
 * Contacts: search as you type, filter by tag, page with keyset cursors, bulk tag, export. The search
 * and tag live in the address (`?query=…&tag=…`), so Back from a contact returns to the same list.
 */
export function ContactsList() {
  const [query, setQuery] = useState(() => new URLSearchParams(location.search).get('query') ?? '');
  const [tag, setTag] = useState(() => new URLSearchParams(location.search).get('tag') ?? '');
  const search = useDebounced(query, SEARCH_DELAY_MS);
  // Keyset paging: the cursors of the pages before this one ("Previous" pops) and this page's;
  // a new filter starts again at page 1.
  const wanted = filterOf(search, tag);
  const filter = new URLSearchParams(wanted).toString();
  useEffect(() => history.replaceState(null, '', `/contacts${filter ? `?${filter}` : ''}`), [filter]);
  const [paging, setPaging] = useState<Paging>({ filter, before: [], cursor: null });
  const { before, cursor } = paging.filter === filter ? paging : { before: [], cursor: null };
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const tags = useTagNames();
  const page = useAsync(
    () =>
      dashboard.get('/api/dashboard/contacts', {
        query: { ...wanted, limit: String(PAGE_SIZE), after: cursor ?? undefined },
      }),
    [filter, cursor],
  );
  useEffect(() => setSelected(new Set()), [page.data]);

  const rows = page.data?.contacts ?? [];
  const next = page.data?.next;
  const goNext = () => next && setPaging({ filter, before: [...before, cursor], cursor: next });
  const goPrevious = () => setPaging({ filter, before: before.slice(0, -1), cursor: before.at(-1) ?? null });
  const exportHref = `/api/dashboard/contacts/export.csv${filter ? `?${filter}` : ''}`;

  return (
    <Page
      title={t('contacts:list.title')}
      actions={
        <>
          <Link class="button primary" href="/contacts/new">
            {t('contacts:list.add')}
          </Link>
          <Link class="button" href="/contacts/tags">
            {t('contacts:list.tags')}
          </Link>
          <Link class="button" href="/contacts/import">
            {t('contacts:list.import')}
          </Link>
          <a class="button" href={exportHref} download>
            {t('contacts:list.export')}
          </a>
        </>
      }
    >
      <form class="inline-form contacts-filter" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="contact-search">{t('contacts:list.search')}</label>
          <input
            id="contact-search"
            type="search"
            value={query}
            placeholder={t('contacts:list.searchPlaceholder')}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="contact-tag">{t('contacts:list.tag')}</label>
          <select id="contact-tag" value={tag} onChange={(e) => setTag(e.currentTarget.value)}>
            <option value="">{t('contacts:allContacts')}</option>
            {tags.data?.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <BulkTagBar
        selected={[...selected]}
        tags={tags.data ?? []}
        onDone={() => {
          page.reload();
          tags.reload();
        }}
      />
      <ErrorNote error={page.error} />
      <p class="muted" role="status" aria-live="polite">
        {page.loading
          ? t('contacts:loading')
          : t('contacts:list.page', counted(rows.length, { page: formatNumber(before.length + 1) }))}
      </p>
      <div class="table-wrap">
        <table class="contacts-table">
          <caption class="visually-hidden">{t('contacts:list.caption')}</caption>
          <thead>
            <tr>
              <th scope="col" class="select-cell">
                <input
                  type="checkbox"
                  aria-label={t('contacts:list.selectAll')}
                  checked={rows.length > 0 && selected.size === rows.length}
                  onChange={(e) => setSelected(new Set(e.currentTarget.checked ? rows.map((c) => c.id) : []))}
                />
              </th>
              <th scope="col">{t('contacts:fields.name')}</th>
              <th scope="col">{t('contacts:fields.phone')}</th>
              <th scope="col">{t('contacts:fields.email')}</th>
              <th scope="col">{t('contacts:fields.tags')}</th>
              <th scope="col">{t('contacts:list.lastMessage')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((contact) => (
              <tr key={contact.id}>
                <td class="select-cell">
                  <input
                    type="checkbox"
                    aria-label={t('contacts:list.select', { name: contact.name ?? contact.phone })}
                    checked={selected.has(contact.id)}
                    onChange={(e) => {
                      const next = new Set(selected);
                      if (e.currentTarget.checked) next.add(contact.id);
                      else next.delete(contact.id);
                      setSelected(next);
                    }}
                  />
                </td>
                <td>
                  <Link href={`/contacts/${contact.id}`}>{contact.name ?? t('contacts:unnamed')}</Link>
                  {contact.opted_out && <span class="badge badge-bad">{t('contacts:list.optedOut')}</span>}
                </td>
                <td class="nowrap">{contact.phone}</td>
                <td>{contact.email ?? ''}</td>
                <td>{contact.tags.join(', ')}</td>
                <td class="nowrap">{formatDateTime(contact.last_message_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!page.loading && rows.length === 0 && <p class="empty">{t('contacts:list.noMatch')}</p>}
      </div>
      <nav class="pager" aria-label={t('contacts:list.pages')}>
        <button type="button" disabled={before.length === 0 || page.loading} onClick={goPrevious}>
          {t('contacts:list.previous')}
        </button>
        <button type="button" disabled={!next || page.loading} onClick={goNext}>
          {t('contacts:list.next')}
        </button>
      </nav>
    </Page>
  );
}

/** Adds or removes a tag on the selected contacts, in one request. */
function BulkTagBar(props: { selected: string[]; tags: string[]; onDone: () => void }) {
  const [tag, setTag] = useState('');
  const [done, setDone] = useState('');
  const apply = async (verb: 'add' | 'remove') => {
    const body = { contact_ids: props.selected, tag, action: verb };
    const result = await dashboard.post('/api/dashboard/contacts/bulk-tag', { body });
    setDone(t(verb === 'add' ? 'contacts:bulk.tagged' : 'contacts:bulk.untagged', counted(result.changed)));
    props.onDone();
  };
  const add = useSubmit(() => apply('add'));
  const remove = useSubmit(() => apply('remove'));
  const disabled = props.selected.length === 0 || tag.trim() === '' || add.busy || remove.busy;
  return (
    <form class="inline-form bulk-bar" aria-label={t('contacts:bulk.form')} onSubmit={add.onSubmit}>
      <div class="field">
        <label for="bulk-tag">{t('contacts:bulk.tagFor', counted(props.selected.length))}</label>
        <input
          id="bulk-tag"
          list="bulk-tag-names"
          maxLength={64}
          value={tag}
          onInput={(e) => setTag(e.currentTarget.value)}
        />
        <datalist id="bulk-tag-names">
          {props.tags.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <button type="submit" disabled={disabled}>
        {t('contacts:bulk.tag')}
      </button>
      <button type="button" disabled={disabled} onClick={() => void remove.run()}>
        {t('contacts:bulk.untag')}
      </button>
      <span role="status" class="muted">
        {done}
      </span>
      <ErrorNote error={add.error ?? remove.error} />
    </form>
  );
}
