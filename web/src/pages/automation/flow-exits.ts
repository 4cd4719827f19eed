import { t } from '../../i18n/i18n';
import { choicesOf, textOf, type Card } from './flow-model';

/** The kinds of condition a branch tests, in the order its pick-list offers them. */
const CONDITIONS = [
  'reply_contains',
  'reply_equals',
  'button_id',
  'has_tag',
  'attribute_equals',
  'attribute_exists',
  'answer_field',
] as const;
export type ConditionKind = (typeof CONDITIONS)[number];

/** A branch's kinds of condition, each with its words. */
export const conditionNames = (): Record<ConditionKind, string> => ({
  reply_equals: t('automation:nodes.conditions.reply_equals'),
  reply_contains: t('automation:nodes.conditions.reply_contains'),
  button_id: t('automation:nodes.conditions.button_id'),
  has_tag: t('automation:nodes.conditions.has_tag'),
  attribute_equals: t('automation:nodes.conditions.attribute_equals'),
  attribute_exists: t('automation:nodes.conditions.attribute_exists'),
  answer_field: t('automation:nodes.conditions.answer_field'),
});

export function conditionKind(when: Record<string, unknown>): ConditionKind {
  if ('attribute' in when) return 'exists' in when ? 'attribute_exists' : 'attribute_equals';
  return CONDITIONS.find((k) => k in when) ?? 'reply_contains';
}

/** A condition as one phrase: "Reply contains “yes”", "city is set". */
function conditionWords(when: Record<string, unknown>): string {
  const kind = conditionKind(when);
  const attribute = textOf(when.attribute);
  if (kind === 'attribute_exists') {
    return when.exists === false
      ? t('automation:builder.exits.attributeNotSet', { attribute })
      : t('automation:builder.exits.attributeSet', { attribute });
  }
  if (kind === 'attribute_equals') {
    return t('automation:builder.exits.attributeEquals', { attribute, value: textOf(when.equals) });
  }
  if (kind === 'answer_field') {
    return t('automation:whatsappFlowNode.answerEquals', {
      field: textOf(when.answer_field),
      value: textOf(when.equals),
    });
  }
  return t('automation:builder.exits.condition', {
    condition: conditionNames()[kind],
    value: textOf(when[kind]),
  });
}

/** An exit of a card (see exitsOf) in words, as its card and its pick-list name it. */
export function exitName(card: Card, key: string): string {
  const { node } = card;
  if (key.startsWith('choice/')) {
    const id = key.slice('choice/'.length);
    const title = choicesOf(node).find((c) => c.id === id)?.title ?? id;
    return t('automation:builder.exits.choice', { title });
  }
  const branch = /^branches\/(\d+)$/.exec(key);
  if (branch) {
    const when = (node.branches as { when: Record<string, unknown> }[])[Number(branch[1])]?.when ?? {};
    return conditionWords(when);
  }
  switch (key) {
    case 'other':
      return t('automation:builder.exits.other');
    case 'no_reply':
    case 'on_timeout':
      return t('automation:builder.exits.noReply');
    case 'on_error':
      return t('automation:builder.exits.failed');
    case 'default':
      return t('automation:builder.exits.otherwise');
    default:
      return nextName(node.type);
  }
}

/** A node's `next` in words: what has happened when the contact goes on. */
function nextName(type: string): string {
  if (type === 'ask' || type === 'send_whatsapp_flow') return t('automation:builder.exits.answered');
  if (type === 'wait_for_reply') return t('automation:builder.exits.replied');
  if (type === 'webhook') return t('automation:builder.exits.succeeded');
  return t('automation:builder.exits.then');
}
