import assert from 'node:assert/strict';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { createOwner } from '../browser.js';
import type { Page } from 'playwright-core';
import type { startWhatsappServer } from '../whatsapp.js';

type WhatsappServer = Awaited<ReturnType<typeof startWhatsappServer>>;

/** The inbox tests' world: owners on the Graph API stand-in, and customers who write in through Meta's webhook. */
export function inboxWorld({ server, postWebhook, connect }: WhatsappServer) {
  const { db } = server.app.services.deps;
  return {
    /** A workspace on the Graph API stand-in and its owner, who can log in. */
    cloudOwner: async (name: string) => {
      const owner = await createOwner(server, name);
      const { phoneNumberId } = await connect(owner.workspaceId);
      return { ...owner, phoneNumberId };
    },

    /** A customer writes in through Meta's webhook, now by the server's clock; returns the contact's id. */
    customerWrites: async (owner: { phoneNumberId: string; workspaceId: string }, from: string, text: string) => {
      const response = await postWebhook(
        inboundTextWebhook({
          phoneNumberId: owner.phoneNumberId,
          from,
          name: null,
          text,
          timestamp: server.clock.now(),
        }),
      );
      assert.equal(response.status, 200, response.text);
      const contact = await db
        .selectFrom('contacts')
        .select('id')
        .where('workspace_id', '=', owner.workspaceId)
        .where('phone', '=', `+${from}`)
        .executeTakeFirstOrThrow();
      return contact.id;
    },
  };
}

/** Waits until the inbox list shows exactly these conversations, in this order (a filter's answer replaces the last). */
export const listShows = (page: Page, names: string[]) =>
  page.waitForFunction(
    (expected) =>
      JSON.stringify(
        [...document.querySelectorAll('.conversation-list .conversation-name')].map((e) => e.textContent),
      ) === expected,
    JSON.stringify(names),
  );
