import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { inboundMessageWebhook, inboundTextWebhook } from '../src/whatsapp/webhook.fixtures.js';
import { API_VERSION, type CloudWorkspace, type WhatsappTestBed } from './whatsapp.js';

/** A new customer's phone number. */
export const customerPhone = () => `+1415${randomInt(2_000_000, 9_999_999)}`;

/**
 * A customer's side of a chatbot conversation on the Graph stand-in: what they write (Meta's
 * webhooks), after which due jobs run and the outbox delivers, and what Parley sent them.
 */
export function flowConversation({ graph, server, postWebhook }: WhatsappTestBed) {
  const { scheduler, outbox } = server.app.services;

  /** Runs the workspace's due jobs and lets the outbox deliver what they queued. */
  const settle = async (cloud: CloudWorkspace): Promise<void> => {
    await scheduler.runDue(cloud.ws.workspaceId);
    outbox.wake();
    await outbox.idle();
  };

  /** Messages the stand-in received for one phone, as `type:text` (text body, interactive body). */
  const sentTo = (cloud: CloudWorkspace, to: string): string[] => {
    type Sent = { to: string; type: string; text?: { body: string }; interactive?: { body: { text: string } } };
    return graph.requests
      .filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
      .map((r) => r.body as Sent)
      .filter((body) => body.to === to)
      .map((body) => `${body.type}:${body.text?.body ?? body.interactive?.body.text}`);
  };

  /** The customer writes a text or taps a reply button. */
  const writes = async (cloud: CloudWorkspace, from: string, message: { text: string } | { button: string }) => {
    // Written now by the server's clock, which a test may have moved on.
    const line = {
      phoneNumberId: cloud.phoneNumberId,
      from: from.slice(1),
      name: 'Ada',
      timestamp: server.clock.now(),
    };
    const body =
      'text' in message
        ? inboundTextWebhook({ ...line, text: message.text })
        : inboundMessageWebhook({
            ...line,
            type: 'interactive',
            content: { type: 'button_reply', button_reply: { id: message.button, title: message.button } },
          });
    assert.equal((await postWebhook(body)).status, 200);
    await settle(cloud);
  };

  return { settle, sentTo, writes };
}
