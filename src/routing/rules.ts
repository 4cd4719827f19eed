import type { ReceivedMessage } from '../messages/index.js';
import type { RuleRow } from './team.repository.js';

/**
 * The team of the first rule that matches a conversation as it opens, or null: `number` matches the
 * channel the customer wrote to, `keyword` a word or phrase in what they wrote (ignoring case), `tag`
 * a tag the contact carries (ignoring case, as tag names compare).
 */
export function teamOf(rules: RuleRow[], messages: ReceivedMessage[], tags: Set<string>): string | null {
  const texts = messages.map(textOf).join('\n').toLowerCase();
  const channels = new Set(messages.map((message) => message.contact.conversation_channel_id));
  const matches = (rule: RuleRow): boolean => {
    switch (rule.kind) {
      case 'number':
        return channels.has(rule.value);
      case 'keyword':
        return texts.includes(rule.value.toLowerCase());
      case 'tag':
        return tags.has(rule.value.trim().toLowerCase());
    }
  };
  return rules.find(matches)?.team_id ?? null;
}

/** What the customer wrote or tapped: a text's body, a caption, a button's or list row's title. */
function textOf(message: ReceivedMessage): string {
  const content = message.content as {
    body?: unknown;
    caption?: unknown;
    text?: unknown;
    button_reply?: { title?: unknown };
    list_reply?: { title?: unknown };
  };
  const text =
    content.body ?? content.caption ?? content.text ?? content.button_reply?.title ?? content.list_reply?.title;
  return typeof text === 'string' ? text : '';
}
