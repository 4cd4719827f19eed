import { t } from '../../i18n/i18n';
import { answerValue } from '../whatsapp-flows/answer-value';
import type { InboxMessage } from './types';
import { previewIn } from './words';

/**
 * The parts of a message beyond its text, drawn as WhatsApp shows them to the customer: the buttons,
 * list or link button of an interactive message, a form the customer filled in (a WhatsApp Flow), a
 * location pin, contact cards, and a reaction.
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
      return m.form ? <FilledForm form={m.form} /> : <Interactive content={m.content} fallback={m.preview} />;
    case 'location':
      return <Location content={m.content} />;
    case 'contacts':
      return <ContactCards content={m.content} />;
    case 'reaction':
      return <p class="bubble-text rich-reaction">{previewIn(m)}</p>;
    default:
      return null;
  }
}

/** A business's interactive message (header, body, footer, then its action), or a customer's tap on one. */
function Interactive({ content, fallback }: { content: Json; fallback: string }) {
  const interactive = record(content.interactive);
  if (!content.interactive)
    return (
      <p class="bubble-text" dir="auto">
        {fallback}
      </p>
    );
  const header = text(record(interactive.header).text);
  const footer = text(record(interactive.footer).text);
  return (
    <div class="rich-interactive" dir="auto">
      {header && <p class="rich-header">{header}</p>}
      <p class="bubble-text">{text(record(interactive.body).text)}</p>
      {footer && <p class="rich-footer muted">{footer}</p>}
      <Action type={text(interactive.type)} action={record(interactive.action)} />
    </div>
  );
}

/** A WhatsApp Flow the customer completed: the Flow's name, then each field's label and answer. */
function FilledForm({ form }: { form: NonNullable<InboxMessage['form']> }) {
  const name = form.whatsapp_flow_name;
  return (
    <div class="rich-form" dir="auto">
      <p class="rich-header">{name ? t('inbox:form.title', { name }) : t('inbox:form.unknownFlow')}</p>
      <dl>
        {form.fields.map((field) => (
          <div key={field.name}>
            <dt>{field.label}</dt>
            <dd>{answerValue(field.value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * A template message as the customer sees it: header (its text, or the kind of media), body, footer
 * and buttons. Messages stored before the header text, footer and buttons were kept show the body.
 */
function Template({ content }: { content: Json }) {
  const header = record(content.header);
  const kind = text(header.type);
  const media = kind === 'image' || kind === 'video' || kind === 'document' ? kind : null;
  const footer = text(content.footer);
  const buttons = list(content.buttons);
  return (
    <div class="rich-template" dir="auto">
      {text(content.header_text) && <p class="rich-header">{text(content.header_text)}</p>}
      {media && (
        <p class="rich-header">
          <a href={text(header.link)} target="_blank" rel="noopener noreferrer">
            {t(`inbox:rich.header.${media}`)}
          </a>
        </p>
      )}
      <p class="bubble-text">{text(content.text)}</p>
      {footer && <p class="rich-footer muted">{footer}</p>}
      {buttons.length > 0 && (
        <ul class="rich-buttons" aria-label={t('inbox:rich.templateButtons')}>
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
      <ul class="rich-buttons" aria-label={t('inbox:rich.replyButtons')}>
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
  if (type === 'flow') {
    // A WhatsApp Flow: the button that opens Meta's form (its answer comes back as the customer's message).
    return (
      <ul class="rich-buttons" aria-label={t('inbox:rich.flowButton')}>
        <li>{text(record(action.parameters).flow_cta)}</li>
      </ul>
    );
  }
  if (type === 'cta_url') {
    const parameters = record(action.parameters);
    return (
      <ul class="rich-buttons" aria-label={t('inbox:rich.linkButton')}>
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
    <p class="bubble-text rich-location" dir="auto">
      <span aria-hidden="true">📍 </span>
      <strong>{text(content.name) || t('inbox:rich.location')}</strong>
      {text(content.address) && <span> · {text(content.address)}</span>}
      <br />
      <a href={map} target="_blank" rel="noopener noreferrer">
        {/* Coordinates as maps take them (a decimal point in every language): people copy them into one. */}
        {latitude.toFixed(5)}, {longitude.toFixed(5)}
      </a>
    </p>
  );
}

function ContactCards({ content }: { content: Json }) {
  return (
    <ul class="rich-contacts" dir="auto" aria-label={t('inbox:rich.contactCards')}>
      {list(content.contacts).map((card, i) => (
        <li key={i}>
          <strong>{text(record(card.name).formatted_name) || t('inbox:rich.contact')}</strong>
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
