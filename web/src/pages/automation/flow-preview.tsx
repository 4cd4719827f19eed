import { render } from '../../../../src/automation/render';
import { t } from '../../i18n/i18n';
import { choicesOf, textOf } from './flow-model';
import type { FlowNode } from './flow-nodes';

/** What marks a reply button and a list's button in the preview, as WhatsApp does. */
const REPLY_ICON = '↩ ';
const LIST_ICON = '☰ ';
/** What marks the button that opens a WhatsApp Flow. */
const FORM_ICON = '▤ ';

/** The node types that send a message of their own text. */
const SENDS_TEXT = new Set(['send_text', 'send_buttons', 'send_list', 'ask', 'send_whatsapp_flow']);

/**
 * The node's message as WhatsApp shows it: a bubble with the text (placeholders filled for a sample
 * contact, attributes shown by name), and its reply buttons or the button that opens its list.
 */
export function MessagePreview({ node, variables }: { node: FlowNode; variables: string[] }) {
  if (!SENDS_TEXT.has(node.type)) return null;
  const text = typeof node.text === 'string' ? node.text : '';
  const attributes = Object.fromEntries(
    variables.flatMap((v) => {
      const key = /^\{\{attributes\.([\w-]+)\}\}$/.exec(v)?.[1];
      return key ? [[key, `[${key}]`]] : [];
    }),
  );
  const shown = render(text, {
    contact: {
      name: t('automation:builder.sampleName'),
      phone: '+14155550100',
      email: null,
      custom_attributes: JSON.stringify(attributes),
    },
    context: {},
  });
  const buttons = node.type === 'send_buttons' ? choicesOf(node) : [];
  return (
    <figure class="wa-preview flow-preview" aria-label={t('automation:builder.preview')}>
      <div class="wa-bubble">
        <p class="wa-body">{shown || <span class="muted">{t('automation:builder.noText')}</span>}</p>
      </div>
      {buttons.length > 0 && (
        <ul class="wa-buttons">
          {buttons.map((b, i) => (
            <li key={i}>
              <span aria-hidden="true">{REPLY_ICON}</span>
              {b.title}
            </li>
          ))}
        </ul>
      )}
      {(node.type === 'send_list' || node.type === 'send_whatsapp_flow') && (
        <ul class="wa-buttons">
          <li>
            <span aria-hidden="true">{node.type === 'send_list' ? LIST_ICON : FORM_ICON}</span>
            {textOf(node.type === 'send_list' ? node.button : node.cta)}
          </li>
        </ul>
      )}
    </figure>
  );
}
