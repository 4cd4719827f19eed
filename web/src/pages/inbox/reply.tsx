import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { ErrorNote, TextField, useAsync, useSubmit } from '../../ui';
import { t } from '../../i18n/i18n';
import { formatDateTime } from '../../i18n/format';
import {
  base64Of,
  EmojiPicker,
  fillQuickReply,
  QuickReplyMenu,
  useQuickReplies,
  type QuickReply,
} from './composer-tools';
import { reachedBySkimming } from './shortcuts';
import { handleOf, MentionMenu, mentionQuery } from './mentions';
import type { InboxMessage, Member, Thread } from './types';
import { previewIn } from './words';
import { useSession } from '../../session';

type Template = PublicSchema<'Template'>;

const MEDIA_HEADERS = ['IMAGE', 'VIDEO', 'DOCUMENT'];
/** A template's media header kind (image, video, document), or null for none or a text header. */
const mediaHeader = (template: Template | undefined) =>
  template?.header_type && MEDIA_HEADERS.includes(template.header_type)
    ? (template.header_type.toLowerCase() as 'image' | 'video' | 'document')
    : null;

/** What the composer sends: a reply to the customer, or a private note only staff see. */
type Mode = 'reply' | 'note';
/** The media kinds a caption goes with (WhatsApp shows none under audio or stickers). */
const CAPTIONED = ['image', 'video', 'document'];

/**
 * Replying: free text, a file, emoji, a `/shortcut` quick reply, quoting a message, inside the
 * 24-hour window; outside it the box is disabled with the reason, and an approved template can be
 * sent instead (WhatsApp's rule, which the API enforces too). A private note can be written any time.
 */
export function ReplyBox(props: {
  thread: Thread;
  onSent: () => void;
  replyTo: InboxMessage | null;
  onCancelReply: () => void;
}) {
  const { thread, onSent, replyTo } = props;
  const [text, setText] = useState('');
  const [mode, setMode] = useState<Mode>('reply');
  const [file, setFile] = useState<File | null>(null);
  const [active, setActive] = useState(0);
  const [templateOpen, setTemplateOpen] = useState(false);
  const { window: win, contact } = thread;
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const matches = useQuickReplies(text);
  const { user } = useSession();
  // Where the cursor is: a note's `@` before it offers the teammates to mention.
  const [caret, setCaret] = useState(0);
  const mention = mode === 'note' ? mentionQuery(text, caret, thread.members, user.id) : null;
  const menu = mention ? mention.matches : matches;
  useEffect(() => setTemplateOpen(false), [contact.id]);
  // Opening a conversation is for answering it: the reply box has the focus (the page stays at the newest
  // message), unless j/k brought the reader here and the keys must keep moving between conversations.
  // A layout effect: the cursor is in place in the same task the box appears, not a frame later.
  useLayoutEffect(() => {
    if (!reachedBySkimming(contact.id)) box.current?.focus({ preventScroll: true });
  }, [contact.id, win.open, mode, replyTo?.id]);
  useEffect(() => setActive(0), [menu.length]);

  const clear = () => {
    setText('');
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    props.onCancelReply();
    onSent();
  };
  const send = useSubmit(async () => {
    if (mode === 'note')
      await dashboard.post('/api/dashboard/conversations/{contactId}/notes', {
        path: { contactId: contact.id },
        body: { body: text },
      });
    else await sendReply(contact.id, text, file, replyTo?.id);
    clear();
  });
  const insert = (value: string) => {
    const area = box.current;
    const at = area?.selectionStart ?? text.length;
    setText(text.slice(0, at) + value + text.slice(area?.selectionEnd ?? at));
    area?.focus();
  };
  const pick = (q: QuickReply) => {
    setText(fillQuickReply(q.body, contact));
    box.current?.focus();
  };
  const pickMention = (member: Member) => {
    if (!mention) return;
    const inserted = `@${handleOf(member)} `;
    setText(text.slice(0, mention.start) + inserted + text.slice(caret));
    setCaret(mention.start + inserted.length);
    const area = box.current;
    // After the new text is rendered: the cursor goes right after the mention.
    requestAnimationFrame(() =>
      area?.setSelectionRange(mention.start + inserted.length, mention.start + inserted.length),
    );
    area?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (menu.length > 0 && ['ArrowDown', 'ArrowUp', 'Enter', 'Tab'].includes(e.key)) {
      e.preventDefault();
      if (e.key === 'ArrowDown') setActive((active + 1) % menu.length);
      else if (e.key === 'ArrowUp') setActive((active + menu.length - 1) % menu.length);
      else if (mention) pickMention(mention.matches[active]!);
      else pick(matches[active]!);
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send.run();
  };
  const activeOption = mention
    ? mention.matches[active] && `mention-${mention.matches[active].id}`
    : matches[active] && `quick-reply-${matches[active].id}`;
  const note = mode === 'note';
  const closed = !win.open && !note;
  const reason = !win.last_inbound_at
    ? t('inbox:reply.neverWrote')
    : t('inbox:reply.windowClosed', { time: formatDateTime(win.closes_at) });
  const label = note ? t('inbox:reply.note') : file ? t('inbox:reply.caption') : t('inbox:reply.reply');

  return (
    <section class={`reply${note ? ' reply-note' : ''}`} aria-label={t('inbox:reply.section')}>
      <div class="reply-modes" role="group" aria-label={t('inbox:reply.modes')}>
        <button type="button" aria-pressed={!note} onClick={() => setMode('reply')}>
          {t('inbox:reply.reply')}
        </button>
        <button type="button" aria-pressed={note} onClick={() => setMode('note')}>
          {t('inbox:reply.note')}
        </button>
      </div>
      <form onSubmit={send.onSubmit} class="reply-form">
        {replyTo && !note && (
          <div class="reply-quote">
            <span>
              {replyTo.direction === 'inbound' ? t('inbox:reply.replyingToTheir') : t('inbox:reply.replyingToOur')}{' '}
              <q dir="auto">{previewIn(replyTo)}</q>
            </span>
            <button type="button" class="link" onClick={props.onCancelReply}>
              {t('inbox:reply.cancelReply')}
            </button>
          </div>
        )}
        <div class="field">
          <label for="reply-text">{label}</label>
          <textarea
            id="reply-text"
            ref={box}
            value={text}
            maxLength={4096}
            disabled={closed}
            aria-controls={mention ? 'mention-menu' : matches.length > 0 ? 'quick-replies' : undefined}
            aria-activedescendant={activeOption || undefined}
            aria-describedby={closed ? 'reply-closed' : 'reply-window'}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setCaret(e.currentTarget.selectionStart);
            }}
            // Enter and Tab in a menu picked already (which placed the cursor); other keys may have moved it.
            onKeyUp={(e) => !['Enter', 'Tab'].includes(e.key) && setCaret(e.currentTarget.selectionStart)}
            onClick={(e) => setCaret(e.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
          />
          {mention ? (
            <MentionMenu query={mention} active={active} onPick={pickMention} />
          ) : (
            <QuickReplyMenu matches={matches} active={active} onPick={pick} />
          )}
          {closed ? (
            <p id="reply-closed" class="warning">
              {reason}
            </p>
          ) : (
            <small id="reply-window" class="hint">
              {note ? t('inbox:reply.noteHint') : t('inbox:reply.replyHint', { time: formatDateTime(win.closes_at) })}
              {!note && contact.opted_out && ` ${t('inbox:reply.optedOut')}`}
            </small>
          )}
        </div>
        {!closed && !note && (
          <div class="reply-tools">
            <EmojiPicker onPick={insert} />
            <label class="button reply-attach">
              <span aria-hidden="true">📎</span> {t('inbox:reply.attach')}
              <input
                ref={fileInput}
                type="file"
                class="visually-hidden"
                onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
              />
            </label>
            {file && (
              <span class="reply-file">
                {file.name}{' '}
                <button type="button" class="link" onClick={() => setFile(null)}>
                  {t('inbox:reply.remove')}
                </button>
              </span>
            )}
          </div>
        )}
        <div class="reply-actions">
          {!closed && (
            <button type="submit" class="primary" disabled={send.busy || (!text.trim() && !file)}>
              {note ? t('inbox:reply.addNote') : t('inbox:reply.send')}
            </button>
          )}
          {!note && (
            <button type="button" aria-expanded={templateOpen} onClick={() => setTemplateOpen(!templateOpen)}>
              {closed ? t('inbox:reply.sendTemplateInstead') : t('inbox:reply.sendTemplate')}
            </button>
          )}
        </div>
        <ErrorNote error={send.error} />
      </form>
      {templateOpen && !note && (
        <TemplateForm
          contactId={contact.id}
          onSent={() => {
            setTemplateOpen(false);
            onSent();
          }}
        />
      )}
    </section>
  );
}

/** A reply to the customer: the file (uploaded, then sent with the text as its caption) or the text. */
async function sendReply(contactId: string, text: string, file: File | null, replyTo: string | undefined) {
  const quote = replyTo ? { reply_to_message_id: replyTo } : {};
  if (!file) {
    await action('send-text-message', { contact_id: contactId, message: text, ...quote });
    return;
  }
  const upload = await action('upload-media', {
    data: await base64Of(file),
    mime_type: file.type || 'application/octet-stream',
    filename: file.name,
  });
  await action('send-media-message', {
    contact_id: contactId,
    type: upload.type,
    media_id: upload.media_id,
    ...(text.trim() && CAPTIONED.includes(upload.type) && { caption: text }),
    ...(upload.type === 'document' && { filename: file.name }),
    ...quote,
  });
}

/** Picks an approved template, asks for each of its variables and sends it (the inbox and the contact page). */
export function TemplateForm({ contactId, onSent }: { contactId: string; onSent: () => void }) {
  const templates = useAsync(() => action('list-templates', { status: 'APPROVED' }), []);
  const approved = (templates.data ?? []).filter((template) => template.status === 'APPROVED');
  const [templateId, setTemplateId] = useState('');
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [headerUrl, setHeaderUrl] = useState('');
  const template = approved.find((candidate) => candidate.id === templateId);
  const header = mediaHeader(template);
  const preview = template?.placeholders.reduce(
    (body, n) => body.replace(new RegExp(`\\{\\{\\s*0*${n}\\s*\\}\\}`, 'g'), variables[n] || `{{${n}}}`),
    template.body,
  );
  const send = useSubmit(async () => {
    if (!template) return;
    await action('send-template-message', {
      contact_id: contactId,
      template_id: template.id,
      language: template.language,
      // Keyed by the ids get-template lists: body, text header and button variables alike.
      variables: Object.fromEntries(template.variables.map((v) => [v.id, variables[v.id] ?? ''])),
      ...(header && { header_media_url: headerUrl }),
    });
    onSent();
  });

  return (
    <form class="template-form" onSubmit={send.onSubmit} aria-label={t('inbox:template.form')}>
      <ErrorNote error={templates.error} />
      <div class="field">
        <label for="reply-template">{t('inbox:template.template')}</label>
        <select
          id="reply-template"
          value={templateId}
          required
          onChange={(e) => {
            setTemplateId(e.currentTarget.value);
            setVariables({});
          }}
        >
          <option value="">{templates.loading ? t('inbox:loading') : t('inbox:template.choose')}</option>
          {approved.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name} ({choice.language})
            </option>
          ))}
        </select>
        {templates.data && approved.length === 0 && <small class="hint">{t('inbox:template.none')}</small>}
      </div>
      {template?.variables.map((v, i) => (
        <TextField
          key={v.id}
          label={t('inbox:template.variable', { label: v.label })}
          required
          maxLength={1024}
          value={variables[v.id] ?? ''}
          onValue={(value) => setVariables({ ...variables, [v.id]: value })}
          hint={i === 0 ? t('inbox:template.variableHint', { placeholder: '{{contact.first_name}}' }) : undefined}
        />
      ))}
      {header && (
        <TextField
          label={t(`inbox:template.headerUrl.${header}`)}
          type="url"
          required
          value={headerUrl}
          onValue={setHeaderUrl}
          hint={t('inbox:template.headerUrlHint')}
        />
      )}
      {preview && (
        <div class="template-preview">
          <span class="muted">{t('inbox:template.preview')}</span>
          <p>{preview}</p>
        </div>
      )}
      <ErrorNote error={send.error} />
      <button type="submit" class="primary" disabled={send.busy || !template}>
        {t('inbox:template.send')}
      </button>
    </form>
  );
}
