import type { InboxMessage } from './types';

/**
 * The parts of a message beyond its text, drawn as WhatsApp shows them to the customer: the buttons,
 * list or link button of an interactive message, a location pin, contact cards, and a reaction.
 */

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);

/** The kinds this file draws; other kinds are text or media. */
export const RICH_TYPES = ['template', 'interactive', 'location', 'contacts', 'reaction'];

export function RichContent({ message: m }: { message: InboxMessage }) {
  switch (m.type) {
    case 'template':
      return <Template content={m.content} />;
    case 'interactive':
      return <Interactive content={m.content} fallback={m.preview} />;
    case 'location':
      return <Location content={m.content} />;
    case 'contacts':
      return <ContactCards content={m.content} />;
    case 'reaction':
      return <Reaction content={m.content} />;
    default:
      return null;
  }
}

/** A business's interactive message (header, body, footer, then its action), or a customer's tap on one. */
function Interactive({ content, fallback }: { content: Json; fallback: string }) {
  const interactive = record(content.interactive);
  if (!content.interactive) return <p class="bubble-text">{fallback}</p>;
  const header = text(record(interactive.header).text);
  const footer = text(record(interactive.footer).text);
  return (
    <div class="rich-interactive">
      {header && <p class="rich-header">{header}</p>}
      <p class="bubble-text">{text(record(interactive.body).text)}</p>
      {footer && <p class="rich-footer muted">{footer}</p>}
      <Action type={text(interactive.type)} action={record(interactive.action)} />
    </div>
  );
}

/**
 * A template message as the customer sees it: header (its text, or the kind of media), body, footer
 * and buttons. Messages stored before the header text, footer and buttons were kept show the body.
 */
function Template({ content }: { content: Json }) {
  const header = record(content.header);
  const media = ['image', 'video', 'document'].includes(text(header.type)) ? text(header.type) : '';
  const footer = text(content.footer);
  const buttons = list(content.buttons);
  return (
    <div class="rich-template">
      {text(content.header_text) && <p class="rich-header">{text(content.header_text)}</p>}
      {media && (
        <p class="rich-header">
          <a href={text(header.link)} target="_blank" rel="noopener noreferrer">
            Header {media}
          </a>
        </p>
      )}
      <p class="bubble-text">{text(content.text)}</p>
      {footer && <p class="rich-footer muted">{footer}</p>}
      {buttons.length > 0 && (
        <ul class="rich-buttons" aria-label="Template buttons">
          {buttons.map((button, i) => (
            <li key={i}>{text(button.text)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Action({ type, action }: { type: string; action: Json }) {
  if (type === 'button') {
    return (
      <ul class="rich-buttons" aria-label="Reply buttons">
        {list(action.buttons).map((button) => (
          <li key={text(record(button.reply).id)}>{text(record(button.reply).title)}</li>
        ))}
      </ul>
    );
  }
  if (type === 'list') {
    return (
      <details class="rich-list">
        <summary>{text(action.button)}</summary>
        {list(action.sections).map((section) => (
          <section key={text(section.title)} aria-label={text(section.title)}>
            <p class="rich-section">{text(section.title)}</p>
            <ul>
              {list(section.rows).map((row) => (
                <li key={text(row.id)}>
                  {text(row.title)}
                  {text(row.description) && <span class="muted"> — {text(row.description)}</span>}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </details>
    );
  }
  if (type === 'cta_url') {
    const parameters = record(action.parameters);
    return (
      <ul class="rich-buttons" aria-label="Link button">
        <li>
          <a href={text(parameters.url)} target="_blank" rel="noopener noreferrer">
            ↗ {text(parameters.display_text)}
          </a>
        </li>
      </ul>
    );
  }
  return null;
}

function Location({ content }: { content: Json }) {
  const latitude = Number(content.latitude);
  const longitude = Number(content.longitude);
  const map = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
  return (
    <p class="bubble-text rich-location">
      <span aria-hidden="true">📍 </span>
      <strong>{text(content.name) || 'Location'}</strong>
      {text(content.address) && <span> · {text(content.address)}</span>}
      <br />
      <a href={map} target="_blank" rel="noopener noreferrer">
        {latitude.toFixed(5)}, {longitude.toFixed(5)}
      </a>
    </p>
  );
}

function ContactCards({ content }: { content: Json }) {
  return (
    <ul class="rich-contacts" aria-label="Contact cards">
      {list(content.contacts).map((card, i) => (
        <li key={i}>
          <strong>{text(record(card.name).formatted_name) || 'Contact'}</strong>
          {list(card.phones).map((phone) => (
            <span key={text(phone.phone)} class="muted">
              {' '}
              · {text(phone.phone)}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

function Reaction({ content }: { content: Json }) {
  const emoji = text(content.emoji);
  return <p class="bubble-text rich-reaction">{emoji ? `Reacted ${emoji}` : 'Removed a reaction'}</p>;
}
