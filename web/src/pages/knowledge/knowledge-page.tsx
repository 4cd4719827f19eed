import { useState } from 'preact/hooks';
import { action, type ActionAnswer } from '../../api/client';
import { counted, formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { can, useSession } from '../../session';
import { CheckField, ConfirmButton, ErrorNote, Page, Table, useAsync } from '../../ui';
import { DocumentForm, QaForm } from './source-forms';
import { TryQuestion } from './try-question';
import { kindLabel, sourceName, stateLabel, type KnowledgeSource, type KnowledgeSourceDetail } from './words';

type Settings = ActionAnswer<'get-knowledge-settings'>;
type SyncedField = 'templates' | 'quick_replies';

/**
 * Knowledge: what the AI teammate answers from. Every role sees the sources and tries questions; a role
 * with the automation permission adds, changes and deletes them and switches templates and quick replies on.
 */
export function KnowledgePage() {
  const manages = can(useSession().user, 'automation');
  const sources = useAsync(() => action('list-knowledge-sources', {}), []);
  const settings = useAsync(() => action('get-knowledge-settings', {}), []);
  const [editing, setEditing] = useState<KnowledgeSourceDetail | null>(null);
  const [shown, setShown] = useState<KnowledgeSourceDetail | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const load = (source: KnowledgeSource, then: (detail: KnowledgeSourceDetail) => void) => {
    setLoadError(null);
    action('get-knowledge-source', { source_id: source.id }).then(then, setLoadError);
  };
  const saved = () => {
    setEditing(null);
    setShown(null);
    sources.reload();
  };
  return (
    <Page title={t('knowledge:title')}>
      <p class="hint">{t('knowledge:intro')}</p>
      {!manages && <p class="muted">{t('knowledge:readOnly')}</p>}
      <TryQuestion />
      <section aria-labelledby="sources-title">
        <h2 id="sources-title">{t('knowledge:sources.title')}</h2>
        {manages && settings.data && (
          <SyncedSwitches
            settings={settings.data}
            onSwitch={(field, on) => settings.update((shown) => ({ ...shown, [field]: on }))}
            onChanged={() => {
              settings.reload();
              sources.reload();
            }}
          />
        )}
        <ErrorNote error={sources.error ?? settings.error ?? loadError} />
        {sources.data?.length === 0 && <p class="muted">{t('knowledge:sources.empty')}</p>}
        {sources.data && sources.data.length > 0 && (
          <SourcesTable
            sources={sources.data}
            manages={manages}
            onShow={(source) => load(source, setShown)}
            onEdit={(source) => load(source, setEditing)}
            onDeleted={saved}
          />
        )}
        {shown && <ChunksPanel source={shown} onClose={() => setShown(null)} />}
        {editing?.kind === 'qa' && <QaForm source={editing} onSaved={saved} onCancel={() => setEditing(null)} />}
        {editing?.kind === 'document' && settings.data && (
          <DocumentForm
            source={editing}
            maxBytes={settings.data.document_max_bytes}
            onSaved={saved}
            onCancel={() => setEditing(null)}
          />
        )}
      </section>
      {manages && !editing && settings.data && (
        <div class="knowledge-add">
          <QaForm onSaved={sources.reload} />
          <DocumentForm maxBytes={settings.data.document_max_bytes} onSaved={sources.reload} />
        </div>
      )}
    </Page>
  );
}

/** The switches of the sources kept current from the workspace: approved templates and quick replies. */
function SyncedSwitches(props: {
  settings: Settings;
  onSwitch: (field: SyncedField, on: boolean) => void;
  onChanged: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  // Shown switched at once; the server's answer (or its refusal) is read back after.
  const set = (field: SyncedField, on: boolean) => {
    setError(null);
    props.onSwitch(field, on);
    action('update-knowledge-settings', { [field]: on }).then(props.onChanged, (e: unknown) => {
      setError(e);
      props.onChanged();
    });
  };
  return (
    <fieldset class="knowledge-synced">
      <legend>{t('knowledge:synced.title')}</legend>
      <CheckField
        label={t('knowledge:synced.templates')}
        hint={t('knowledge:synced.templatesHint')}
        checked={props.settings.templates}
        onChecked={(on) => set('templates', on)}
      />
      <CheckField
        label={t('knowledge:synced.quickReplies')}
        hint={t('knowledge:synced.quickRepliesHint')}
        checked={props.settings.quick_replies}
        onChecked={(on) => set('quick_replies', on)}
      />
      <ErrorNote error={error} />
    </fieldset>
  );
}

function SourcesTable(props: {
  sources: KnowledgeSource[];
  manages: boolean;
  onShow: (source: KnowledgeSource) => void;
  onEdit: (source: KnowledgeSource) => void;
  onDeleted: () => void;
}) {
  return (
    <Table
      caption={t('knowledge:sources.caption')}
      columns={[
        t('knowledge:sources.source'),
        t('knowledge:sources.kind'),
        t('knowledge:sources.chunks'),
        t('knowledge:sources.search'),
        t('knowledge:sources.updated'),
      ]}
      actions
    >
      {props.sources.map((source) => {
        const name = sourceName(source);
        const editable = props.manages && (source.kind === 'qa' || source.kind === 'document');
        return (
          <tr key={source.id}>
            <th scope="row" class="knowledge-source-name">
              {name}
              {source.file_name && (
                <span class="muted"> ({t('knowledge:sources.fromFile', { file: source.file_name })})</span>
              )}
              {source.excerpt && <p class="muted knowledge-excerpt">{source.excerpt}</p>}
            </th>
            <td>{kindLabel(source.kind)}</td>
            <td>
              {t('knowledge:sources.chunkCount', counted(source.chunk_count))}
              {source.state === 'embedding' && (
                <span class="muted">
                  {' '}
                  · {t('knowledge:sources.embedded', { embedded: source.embedded_count, total: source.chunk_count })}
                </span>
              )}
            </td>
            <td>{stateLabel(source.state)}</td>
            <td>{formatDateTime(source.updated_at)}</td>
            <td>
              <div class="row-actions">
                <button
                  type="button"
                  onClick={() => props.onShow(source)}
                  aria-label={t('knowledge:sources.showChunksOf', { title: name })}
                >
                  {t('knowledge:sources.showChunks')}
                </button>
                {editable && (
                  <button
                    type="button"
                    onClick={() => props.onEdit(source)}
                    aria-label={t('knowledge:sources.editOf', { title: name })}
                  >
                    {t('common:edit')}
                  </button>
                )}
                {props.manages && (
                  <ConfirmButton
                    label={t('common:delete')}
                    question={t('knowledge:sources.deleteQuestion', { title: name })}
                    confirmLabel={t('common:delete')}
                    danger
                    onConfirm={async () => {
                      await action('delete-knowledge-source', { source_id: source.id });
                      props.onDeleted();
                    }}
                  />
                )}
              </div>
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** A source's chunks as retrieval finds them: each with its heading path. */
function ChunksPanel({ source, onClose }: { source: KnowledgeSourceDetail; onClose: () => void }) {
  const title = t('knowledge:sources.showChunksOf', { title: sourceName(source) });
  return (
    <section class="panel" aria-label={title}>
      <header class="panel-header">
        <h3>{title}</h3>
        <button type="button" onClick={onClose}>
          {t('knowledge:sources.hideChunks')}
        </button>
      </header>
      <ol class="knowledge-chunks">
        {source.chunks.map((chunk) => (
          <li key={chunk.id}>
            <p class="knowledge-chunk-source">
              <strong>{chunk.heading || t('knowledge:sources.noHeading')}</strong>
            </p>
            <p class="knowledge-chunk-text">{chunk.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
