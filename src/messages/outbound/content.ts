import type { Interactive } from '../../channels/whatsapp-payloads.js';
import type { TemplateContent } from './template.js';

/**
 * What a business sends, typed by kind. `content` is exactly what the message row stores (and the API
 * shows): enough to build the channel's request later without reading anything else again.
 */
export type OutboundContent =
  | { type: 'text'; content: { body: string; preview_url: boolean } }
  | { type: 'interactive'; content: { interactive: Interactive; text: string } }
  | { type: 'template'; content: TemplateContent };

export type OutboundType = OutboundContent['type'];

export const textContent = (body: string, previewUrl = false): OutboundContent => ({
  type: 'text',
  content: { body, preview_url: previewUrl },
});

/** A stored outbound message's content back in its typed form (the outbox reads it to send). */
export function storedContent(type: string, json: string): OutboundContent {
  const content = JSON.parse(json) as Record<string, unknown>;
  if (type === 'text')
    return { type, content: { body: content.body as string, preview_url: content.preview_url === true } };
  if (type === 'interactive' || type === 'template') return { type, content } as OutboundContent;
  throw new Error(`not an outbound message type: ${type}`);
}

/** Templates approved in a marketing category: the only kind an opted-out contact is never sent. */
export const isMarketing = (message: OutboundContent): boolean =>
  message.type === 'template' && message.content.category === 'MARKETING';
