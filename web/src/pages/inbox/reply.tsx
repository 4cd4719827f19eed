import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import { ErrorNote, fieldErrors, useSubmit } from '../../ui';
import { t } from '../../i18n/i18n';
import { formatDateTime } from '../../i18n/format';
import { AttachFile, fileError, fileLabels, mediaMessage, useAttachment } from './attachment';
import { EmojiPicker, fillQuickReply, QuickReplyMenu, useQuickReplies, type QuickReply } from './composer-tools';
import { reachedBySkimming } from './shortcuts';
import { handleOf, MentionMenu, mentionQuery } from './mentions';
import type { InboxMessage, Member, Thread } from './types';
import { previewIn } from './words';
import { useSession } from '../../session';
import { TemplateForm } from './template-form';
import { FlowForm } from './flow-form';
import { CopilotTools, type useCopilot } from './copilot';

/** What the composer sends: a reply to the customer, or a private note only staff see. */
type Mode = 'reply' | 'note';

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
  copilot: ReturnType<typeof useCopilot>;
}) {
  const { thread, onSent, replyTo } = props;
  const [text, setText] = useState('');
  const [mode, setMode] = useState<Mode>('reply');
  const [active, setActive] = useState(0);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [flowOpen, setFlowOpen] = useState(false);
  const { window: win, contact } = thread;
  const box = useRef<HTMLTextAreaElement>(null);
  // Its problem goes when another file is chosen (`send` is declared below; this runs on a choice).
  const attachment = useAttachment((...fields) => send.edited(...fields));
  const { file } = attachment;
  const matches = useQuickReplies(text);
  const { user } = useSession();
  // Where the cursor is: a note's `@` before it offers the teammates to mention.
  const [caret, setCaret] = useState(0);
  const mention = mode === 'note' ? mentionQuery(text, caret, thread.members, user.id) : null;
  const menu = mention ? mention.matches : matches;
  useEffect(() => {
    setTemplateOpen(false);
    setFlowOpen(false);
  }, [contact.id]);
  // Opening a conversation is for answering it: the reply box has the focus (the page stays at the newest
  // message), unless j/k brought the reader here and the keys must keep moving between conversations.
  // A layout effect: the cursor is in place in the same task the box appears, not a frame later.
  useLayoutEffect(() => {
    if (!reachedBySkimming(contact.id)) box.current?.focus({ preventScroll: true });
  }, [contact.id, win.open, mode, replyTo?.id]);
  useEffect(() => setActive(0), [menu.length]);

  const clear = () => {
    setText('');
    attachment.clear();
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
  const errors = fieldErrors(send.error, fileLabels());

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
          <CopilotTools
            contactId={contact.id}
            copilot={props.copilot}
            text={text}
            onText={(value) => {
              setText(value);
              box.current?.focus();
            }}
          />
        )}
        {!closed && !note && (
          <div class="reply-tools">
            <EmojiPicker onPick={insert} />
            <AttachFile attachment={attachment} error={fileError(errors)} />
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
          {!note && !closed && (
            <button type="button" aria-expanded={flowOpen} onClick={() => setFlowOpen(!flowOpen)}>
              {t('inbox:reply.sendFlow')}
            </button>
          )}
        </div>
        <ErrorNote error={errors.note} />
      </form>
      {flowOpen && !note && !closed && (
        <FlowForm
          contactId={contact.id}
          onSent={() => {
            setFlowOpen(false);
            onSent();
          }}
        />
      )}
      {templateOpen && !note && (
        <TemplateForm
          to={{ contact_id: contact.id }}
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
  if (file)
    await action('send-media-message', { contact_id: contactId, ...(await mediaMessage(file, text)), ...quote });
  else await action('send-text-message', { contact_id: contactId, message: text, ...quote });
}
