import { useState } from 'preact/hooks';
import {} from '../../ui';
import { RICH_TYPES, RichContent } from './rich';
import type { ConversationNote, InboxMessage, Member, MessageSender, Rating } from './types';
import { formatDateTime } from '../../i18n/format';

/** The thread's entries: a message (who sent it, its content, time and tick) and a staff note. */

const TICKS: Record<string, { symbol: string; label: string }> = {
  queued: { symbol: '◷', label: 'Queued' },
  sent: { symbol: '✓', label: 'Sent' },
  delivered: { symbol: '✓✓', label: 'Delivered' },
  read: { symbol: '✓✓', label: 'Read' },
  failed: { symbol: '⚠', label: 'Failed' },
};
const MEDIA = ['image', 'sticker', 'video', 'audio', 'document'];

/** Who sent an outbound message, in words: the member, "API", the automation by name, or Parley. */
function senderLabel(sender: MessageSender): string {
  switch (sender.type) {
    case 'user':
      return sender.name || 'A former team member';
    case 'api':
      return sender.name ? `API · ${sender.name}` : 'API';
    case 'campaign':
      return `Campaign ${sender.name || '(deleted)'}`;
    case 'sequence':
      return `Sequence ${sender.name || '(deleted)'}`;
    case 'flow':
      return `Flow ${sender.name || '(deleted)'}`;
    case 'system':
      return 'Parley (automatic reply)';
  }
}

/** A staff member's private note: shown only here, never sent to the customer. */
export function NoteBubble({ note }: { note: ConversationNote }) {
  return (
    <li class="bubble note">
      <span class="bubble-sender">Private note · {note.author?.name || 'A former team member'}</span>
      <p class="bubble-text">{note.body}</p>
      <span class="bubble-meta">
        <time dateTime={note.created_at}>{formatDateTime(note.created_at)}</time>
      </span>
    </li>
  );
}

/** "Rated 4/5": the customer's answer to the satisfaction survey, a small event between the messages. */
export function RatingEvent({ rating, members }: { rating: Rating; members: Member[] }) {
  const agent = members.find((member) => member.id === rating.agent_id);
  return (
    <li class="thread-event rating">
      Rated {rating.rating}/5{agent && ` · for ${agent.name || agent.email}`} ·{' '}
      <time dateTime={rating.rated_at}>{formatDateTime(rating.rated_at)}</time>
    </li>
  );
}

/**
 * A message: who sent it (outbound), its text (a template's rendered text), media, time, and for
 * outbound ones the delivery tick.
 */
export function MessageBubble({ message: m, onReply }: { message: InboxMessage; onReply: (m: InboxMessage) => void }) {
  const tick = m.direction === 'outbound' ? TICKS[m.status] : undefined;
  const sender = m.direction === 'outbound' && m.sender ? senderLabel(m.sender) : null;
  return (
    <li class={`bubble ${m.direction}`} data-status={m.status} data-sender={m.sender?.type}>
      {m.direction === 'inbound' ? (
        <span class="visually-hidden">They wrote: </span>
      ) : (
        <span class="bubble-sender">{sender ?? 'Sent'}</span>
      )}
      {m.quote && (
        <blockquote class="bubble-quote">
          <span class="visually-hidden">In reply to {m.quote.direction === 'inbound' ? 'their' : 'our'} message: </span>
          {m.quote.preview}
        </blockquote>
      )}
      {MEDIA.includes(m.type) ? (
        <Media message={m} />
      ) : RICH_TYPES.includes(m.type) ? (
        <RichContent message={m} />
      ) : (
        <p class="bubble-text">{m.preview ? bodyOf(m) : `${m.type} message`}</p>
      )}
      {m.type === 'template' && typeof m.content.template_name === 'string' && (
        <span class="muted bubble-kind">Template {m.content.template_name}</span>
      )}
      <span class="bubble-meta">
        {m.revoked_at && <span class="bubble-note">Deleted by the sender</span>}
        {m.edits.length > 0 && !m.revoked_at && <span class="bubble-note">Edited</span>}
        {m.reaction && (
          <span class="bubble-reaction" title="Their reaction">
            {m.reaction}
          </span>
        )}
        {m.provider_message_id && m.type !== 'reaction' && !m.revoked_at && (
          <button type="button" class="link bubble-reply" onClick={() => onReply(m)}>
            Reply<span class="visually-hidden"> to this message</span>
          </button>
        )}
        <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
        {tick && (
          <span class={`tick tick-${m.status}`} title={tick.label}>
            <span aria-hidden="true">{tick.symbol}</span>
            <span class="visually-hidden">{tick.label}</span>
          </span>
        )}
      </span>
      {m.status === 'failed' && m.error && (
        <p class="error bubble-error">
          Not delivered: {m.error.title}
          {m.error.code !== null && ` (${m.error.code})`}
          {m.error.details && ` — ${m.error.details}`}
        </p>
      )}
    </li>
  );
}

/** The full text (the preview is one shortened line). */
function bodyOf(m: InboxMessage): string {
  if (m.type === 'text' && typeof m.content.body === 'string') return m.content.body;
  return m.preview;
}

/**
 * Media through the dashboard's media endpoint (received files, and files the team uploaded): images
 * inline, everything else as a link. Media sent by link is shown as that link: the dashboard never
 * loads a third party's file by itself.
 */
function Media({ message: m }: { message: InboxMessage }) {
  const [broken, setBroken] = useState(false);
  const link = typeof m.content.link === 'string' ? m.content.link : null;
  const src = link ?? `/api/dashboard/media/${m.id}`;
  const caption = typeof m.content.caption === 'string' ? m.content.caption : null;
  const filename = typeof m.content.filename === 'string' ? m.content.filename : null;
  const mime = typeof m.content.mime_type === 'string' ? m.content.mime_type : (filename ?? m.type);
  const inline = (m.type === 'image' || m.type === 'sticker') && !broken && !link;
  return (
    <figure class="bubble-media">
      {inline && (
        <img
          src={src}
          alt={caption ?? (m.direction === 'inbound' ? `${m.type} from the contact` : `${m.type} sent to the contact`)}
          loading="lazy"
          onError={() => setBroken(true)}
        />
      )}
      <figcaption>
        <a href={src} target="_blank" rel="noopener noreferrer">
          {m.type[0]!.toUpperCase() + m.type.slice(1)} ({mime})
        </a>
        {caption && <span> — {caption}</span>}
      </figcaption>
    </figure>
  );
}
