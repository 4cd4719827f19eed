import { useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import { formatDateTime, formatDuration, formatMoney, formatPercent } from '../../i18n/format';
import { pricingCategoryName } from '../pricing-category';
import { MEDIA_KINDS, type MediaKind } from '../../../../src/content/message-text';
import { RICH_TYPES, RichContent } from './rich';
import type { AssistantTurn, Call, ConversationNote, InboxMessage, Member, MessageSender, Rating } from './types';
import { previewIn, textIn } from './words';

/** The thread's entries: a message (who sent it, its content, time and tick) and a staff note. */

/** An outbound message's tick by its status; the status's name is in the catalog. */
const TICKS = { queued: '◷', sent: '✓', delivered: '✓✓', read: '✓✓', failed: '⚠' } as const;
type Ticked = keyof typeof TICKS;
const ticked = (status: string): status is Ticked => status in TICKS;
const isMedia = (type: string): type is MediaKind => (MEDIA_KINDS as readonly string[]).includes(type);

/** Who sent an outbound message, in words: the member, "API", the automation by name, Parley, or the WhatsApp Business app. */
export function senderLabel(sender: MessageSender): string {
  switch (sender.type) {
    case 'user':
      return sender.name || t('inbox:message.sender.formerMember');
    case 'api':
      return sender.name ? t('inbox:message.sender.apiNamed', { name: sender.name }) : t('inbox:message.sender.api');
    case 'campaign':
    case 'sequence':
    case 'flow':
      return t(`inbox:message.sender.${sender.type}`, {
        name: sender.name || t('inbox:message.sender.deleted'),
      });
    case 'system':
      return t('inbox:message.sender.system');
    case 'business_app':
      return t('inbox:message.sender.businessApp');
    case 'ai':
      return t('inbox:message.sender.ai', { name: sender.name });
  }
}

/** A staff member's private note: shown only here, never sent to the customer. */
export function NoteBubble({ note }: { note: ConversationNote }) {
  return (
    <li class="bubble note">
      <span class="bubble-sender">
        {note.ai_author
          ? t('inbox:message.aiNote', { name: note.ai_author })
          : t('inbox:message.note', { author: note.author?.name || t('inbox:message.sender.formerMember') })}
      </span>
      <p class="bubble-text" dir="auto">
        {note.body}
      </p>
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
      {agent
        ? t('inbox:message.ratedFor', { rating: rating.rating, agent: agent.name || agent.email })
        : t('inbox:message.rated', { rating: rating.rating })}{' '}
      · <time dateTime={rating.rated_at}>{formatDateTime(rating.rated_at)}</time>
    </li>
  );
}

/** A WhatsApp call: who called, how it ended, how long it lasted, when (the audio is not Parley's). */
export function CallEvent({ call }: { call: Call }) {
  const parts = [t(`inbox:message.call.${call.direction}`), t(`inbox:message.call.outcome.${call.outcome}`)];
  if (call.duration_seconds) parts.push(formatDuration(call.duration_seconds));
  if (call.error) parts.push(t('inbox:message.call.error', { title: call.error.title, code: call.error.code }));
  return (
    <li class="thread-event call" data-outcome={call.outcome}>
      <span aria-hidden="true">☎ </span>
      {parts.join(' · ')} · <time dateTime={call.placed_at}>{formatDateTime(call.placed_at)}</time>
    </li>
  );
}

/**
 * A message: who sent it (outbound), its text (a template's rendered text), media, time, and for
 * outbound ones the delivery tick.
 */
export function MessageBubble({
  message: m,
  turn,
  onReply,
}: {
  message: InboxMessage;
  /** The AI assistant's turn that sent this message, for its citations. */
  turn?: AssistantTurn | undefined;
  onReply: (m: InboxMessage) => void;
}) {
  const status = m.direction === 'outbound' && ticked(m.status) ? m.status : null;
  const sender = m.direction === 'outbound' && m.sender ? senderLabel(m.sender) : null;
  return (
    <li class={`bubble ${m.direction}`} data-status={m.status} data-sender={m.sender?.type}>
      {m.direction === 'inbound' ? (
        <span class="visually-hidden">{t('inbox:message.theyWrote')} </span>
      ) : (
        <span class="bubble-sender">{sender ?? t('inbox:message.sent')}</span>
      )}
      {m.quote && (
        <blockquote class="bubble-quote">
          <span class="visually-hidden">
            {m.quote.direction === 'inbound' ? t('inbox:message.inReplyToTheir') : t('inbox:message.inReplyToOur')}{' '}
          </span>
          <span dir="auto">{previewIn(m.quote)}</span>
        </blockquote>
      )}
      {isMedia(m.type) ? (
        <Media message={m} kind={m.type} />
      ) : RICH_TYPES.includes(m.type) ? (
        <RichContent message={m} />
      ) : (
        <p class="bubble-text" dir="auto">
          {textIn(m)}
        </p>
      )}
      {m.type === 'template' && typeof m.content.template_name === 'string' && (
        <span class="muted bubble-kind">{t('inbox:message.template', { name: m.content.template_name })}</span>
      )}
      {m.sent_via === 'marketing_messages' && (
        <span class="muted bubble-kind">{t('inbox:message.sentViaMarketingMessages')}</span>
      )}
      {m.cost && <span class="muted bubble-kind">{costOf(m.cost)}</span>}
      {turn && <Citations turn={turn} />}
      <span class="bubble-meta">
        {m.revoked_at && <span class="bubble-note">{t('inbox:message.deleted')}</span>}
        {m.edits.length > 0 && !m.revoked_at && <span class="bubble-note">{t('inbox:message.edited')}</span>}
        {m.reaction && (
          <span class="bubble-reaction" title={t('inbox:message.theirReaction')}>
            {m.reaction}
          </span>
        )}
        {m.provider_message_id && m.type !== 'reaction' && !m.revoked_at && (
          <button type="button" class="link bubble-reply" onClick={() => onReply(m)}>
            {t('inbox:message.reply')}
            <span class="visually-hidden"> {t('inbox:message.replyToThis')}</span>
          </button>
        )}
        <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
        {status && (
          <span class={`tick tick-${status}`} title={t(`inbox:message.status.${status}`)}>
            <span aria-hidden="true">{TICKS[status]}</span>
            <span class="visually-hidden">{t(`inbox:message.status.${status}`)}</span>
          </span>
        )}
      </span>
      {m.status === 'failed' && m.error && <FailedNote error={m.error} />}
    </li>
  );
}

/**
 * What an AI reply relied on, for the team (never sent): each knowledge chunk it cited, by its source and
 * heading, with the text as it was when cited, and the model's confidence.
 */
function Citations({ turn }: { turn: AssistantTurn }) {
  const confidence =
    turn.confidence === null ? '' : t('inbox:message.ai.confidence', { value: formatPercent(turn.confidence) });
  if (turn.citations.length === 0) {
    return (
      <p class="muted bubble-kind">{[t('inbox:message.ai.noCitations'), confidence].filter(Boolean).join(' · ')}</p>
    );
  }
  return (
    <details class="bubble-citations">
      <summary>
        {t('inbox:message.ai.cited', { count: turn.citations.length })}
        {confidence && ` · ${confidence}`}
      </summary>
      <ol>
        {turn.citations.map((citation) => (
          <li key={citation.chunk_id}>
            <strong dir="auto">{[...new Set([citation.source, citation.heading].filter(Boolean))].join(' — ')}</strong>
            <blockquote dir="auto">{citation.text}</blockquote>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Why WhatsApp did not deliver a message: Meta's own words (English), with its error code and details. */
/** What Meta charged for the message, priced by the workspace's rates (as Reports → Costs adds it up). */
function costOf({ amount, currency, category, market }: NonNullable<InboxMessage['cost']>): string {
  const named = pricingCategoryName(category);
  return amount === null
    ? t('inbox:message.costWithoutRate', { category: named, market })
    : t('inbox:message.cost', { amount: formatMoney(amount, currency), category: named });
}

function FailedNote({ error }: { error: NonNullable<InboxMessage['error']> }) {
  const reason = [error.title, error.code !== null && `(${error.code})`].filter(Boolean).join(' ');
  const details = error.details ? ` — ${error.details}` : '';
  return <p class="error bubble-error">{t('inbox:message.notDelivered', { reason: reason + details })}</p>;
}

/**
 * Media through the dashboard's media endpoint (received files, and files the team uploaded): images
 * inline, everything else as a link. Media sent by link is shown as that link: the dashboard never
 * loads a third party's file by itself.
 */
function Media({ message: m, kind }: { message: InboxMessage; kind: MediaKind }) {
  const [broken, setBroken] = useState(false);
  const link = typeof m.content.link === 'string' ? m.content.link : null;
  const src = link ?? `/api/dashboard/media/${m.id}`;
  const caption = typeof m.content.caption === 'string' ? m.content.caption : null;
  const filename = typeof m.content.filename === 'string' ? m.content.filename : null;
  const mime = typeof m.content.mime_type === 'string' ? m.content.mime_type : (filename ?? kind);
  const name = t(`inbox:media.${kind}`);
  const inline = (m.type === 'image' || m.type === 'sticker') && !broken && !link;
  return (
    <figure class="bubble-media">
      {inline && (
        <img
          src={src}
          alt={
            caption ??
            t(m.direction === 'inbound' ? 'inbox:message.mediaFromContact' : 'inbox:message.mediaToContact', {
              kind: name,
            })
          }
          loading="lazy"
          onError={() => setBroken(true)}
        />
      )}
      <figcaption>
        <a href={src} target="_blank" rel="noopener noreferrer">
          {name} ({mime})
        </a>
        {caption && (
          <>
            {' — '}
            <span dir="auto">{caption}</span>
          </>
        )}
      </figcaption>
    </figure>
  );
}
