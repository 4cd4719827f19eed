import { t } from '../../i18n/i18n';
import { newKey } from './common';
import { hasChoices, idFromTitle, idsOf, type Card } from './flow-model';
import { DEFAULT_WAIT, nodeTypeName, type FlowNode, type NodeType } from './flow-nodes';
import { newBranch } from './flow-conditions';

/**
 * A new card of this type, named after its type, with what makes it whole as it comes: a "Send buttons"
 * has one button "Yes", a list one row, a branch a condition; a message with choices waits for the reply.
 */
export function newCard(type: NodeType, cards: Card[]): Card {
  const taken = idsOf(cards);
  const id = idFromTitle(nodeTypeName(type), taken, type);
  const node: FlowNode = { id, type, ...fieldsOf(type) };
  if (!hasChoices(type)) return { key: newKey(), node };
  const waitId = idFromTitle(`${id}-reply`, taken, `${id}-reply`);
  const wait: FlowNode = { id: waitId, type: 'wait_for_reply', timeout: DEFAULT_WAIT };
  return { key: newKey(), node: { ...node, next: wait.id }, wait };
}

/** A new node's own fields, by type. */
function fieldsOf(type: NodeType): Record<string, unknown> {
  const choice = (n: number) => ({ id: `option_${n}`, title: t('automation:builder.newChoice', { n }) });
  switch (type) {
    case 'send_buttons':
      return { text: '', buttons: [{ id: 'yes', title: t('automation:nodes.newButton') }] };
    case 'send_list':
      return {
        text: '',
        button: t('automation:builder.newListButton'),
        sections: [{ title: t('automation:builder.newSection'), rows: [choice(1)] }],
      };
    case 'ask':
      return { text: '', attribute: 'answer', timeout: DEFAULT_WAIT };
    case 'wait_for_reply':
      return { timeout: DEFAULT_WAIT };
    case 'branch':
      return { branches: [newBranch()], default: '' };
    case 'webhook':
      return { url: '', method: 'POST' };
    case 'set_attribute':
      return { attribute: '', value: '' };
    case 'add_tag':
    case 'remove_tag':
      return { tag: '' };
    case 'send_text':
      return { text: '' };
    case 'send_template':
      return { template_id: '' };
    case 'send_whatsapp_flow':
      return { whatsapp_flow_id: '', text: '', cta: t('automation:whatsappFlowNode.newCta'), timeout: DEFAULT_WAIT };
    case 'handoff':
    case 'ai_assistant':
    case 'end':
      return {};
  }
}
