import { useState } from 'preact/hooks';
import { action } from '../api/client';
import { ErrorNote, Page, TextField, fieldErrors, useAsync, useSubmit } from '../ui';
import { Rich } from '../i18n/rich';
import type { QuickReply } from './inbox/composer-tools';
import { SettingsNav } from './settings-nav';
import { t } from '../i18n/i18n';

/** Settings → Quick replies: the workspace's saved answers, typed as `/shortcut` in the inbox's reply box. */
export function QuickRepliesSettings() {
  const saved = useAsync(() => action('list-quick-replies', {}), []);
  return (
    <Page title={t('settings:quickReplies.title')}>
      <SettingsNav />
      <p class="muted">
        <Rich text={t('settings:quickReplies.intro')} />
      </p>
      <ErrorNote error={saved.error} />
      <QuickReplyForm onSaved={saved.reload} />
      {saved.data && saved.data.length === 0 && <p class="muted">{t('settings:quickReplies.none')}</p>}
      <ul class="quick-reply-list" aria-label={t('settings:quickReplies.listLabel')}>
        {saved.data?.map((q) => (
          <QuickReplyRow key={q.id} quickReply={q} onChange={saved.reload} />
        ))}
      </ul>
    </Page>
  );
}

/** Adds a quick reply, or changes `quickReply` when given. */
function QuickReplyForm(props: { quickReply?: QuickReply; onSaved: () => void; onCancel?: () => void }) {
  const [shortcut, setShortcut] = useState(props.quickReply?.shortcut ?? '');
  const [body, setBody] = useState(props.quickReply?.body ?? '');
  const save = useSubmit(async () => {
    if (props.quickReply) await action('update-quick-reply', { quick_reply_id: props.quickReply.id, shortcut, body });
    else await action('create-quick-reply', { shortcut, body });
    if (!props.quickReply) {
      setShortcut('');
      setBody('');
    }
    props.onSaved();
  });
  const labels = { shortcut: t('settings:quickReplies.shortcut'), body: t('settings:quickReplies.answer') };
  const errors = fieldErrors(save.error, labels);
  const editing = !!props.quickReply;
  return (
    <form
      class="quick-reply-form"
      onSubmit={save.onSubmit}
      aria-label={editing ? t('settings:quickReplies.changeLabel') : t('settings:quickReplies.addLabel')}
    >
      <TextField
        label={labels.shortcut}
        value={shortcut}
        onValue={setShortcut}
        required
        maxLength={33}
        hint={t('settings:quickReplies.shortcutHint')}
        error={errors.field('shortcut')}
      />
      <div class="field">
        <label for={editing ? `answer-${props.quickReply!.id}` : 'answer-new'}>{labels.body}</label>
        <textarea
          id={editing ? `answer-${props.quickReply!.id}` : 'answer-new'}
          value={body}
          required
          maxLength={4096}
          aria-invalid={errors.field('body') ? true : undefined}
          aria-describedby={editing ? `answer-hint-${props.quickReply!.id}` : 'answer-hint-new'}
          onInput={(e) => setBody(e.currentTarget.value)}
        />
        <small class="hint" id={editing ? `answer-hint-${props.quickReply!.id}` : 'answer-hint-new'}>
          <Rich text={t('settings:quickReplies.placeholderHint', { placeholder: '{{contact.first_name}}' })} />
        </small>
        {errors.field('body') && <p class="error">{errors.field('body')}</p>}
      </div>
      <ErrorNote error={errors.note} />
      <div class="reply-actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {editing ? t('common:save') : t('settings:quickReplies.add')}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {t('common:cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

function QuickReplyRow({ quickReply: q, onChange }: { quickReply: QuickReply; onChange: () => void }) {
  const [editing, setEditing] = useState(false);
  const remove = useSubmit(async () => {
    if (!confirm(t('settings:quickReplies.deleteQuestion', { shortcut: q.shortcut }))) return;
    await action('delete-quick-reply', { quick_reply_id: q.id });
    onChange();
  });
  if (editing) {
    return (
      <li>
        <QuickReplyForm
          quickReply={q}
          onSaved={() => {
            setEditing(false);
            onChange();
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li>
      <strong>/{q.shortcut}</strong>
      <p class="quick-reply-body">{q.body}</p>
      <div class="reply-actions">
        <button type="button" onClick={() => setEditing(true)}>
          {t('common:edit')}
          <span class="visually-hidden"> /{q.shortcut}</span>
        </button>
        <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.run()}>
          {t('common:delete')}
          <span class="visually-hidden"> /{q.shortcut}</span>
        </button>
      </div>
      <ErrorNote error={remove.error} />
    </li>
  );
}
