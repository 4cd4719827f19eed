import type { Page } from 'playwright-core';
import { openDatabase } from '../src/db/connection.js';
import { messageRepository } from '../src/messages/message.repository.js';
import { systemClock } from '../src/shared/clock.js';
import { createIdGenerator } from '../src/shared/ids.js';

/**
 * The inbox's figure for `npm run bench:dashboard`: `count` of the most recent seeded contacts get a
 * message from the customer (through the message repository, as webhooks store them), so the inbox
 * holds that many open, unread conversations.
 */
export async function seedConversations(dataDir: string, workspaceId: string, count: number): Promise<void> {
  const { db } = openDatabase({ databaseUrl: null, dataDir });
  const newId = createIdGenerator(systemClock);
  const contacts = await db
    .selectFrom('contacts')
    .select(['id', 'phone', 'name', 'email', 'last_message_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('last_message_at', 'desc')
    .limit(count)
    .execute();
  const inbounds = contacts.map((contact, n) => ({
    sender: contact,
    message: {
      id: newId(),
      workspace_id: workspaceId,
      contact_id: contact.id,
      type: 'text',
      content: JSON.stringify({ body: `Question number ${n}: is my order on its way?` }),
      status: 'received',
      provider_message_id: `wamid.bench${n}`,
      error: null,
      created_at: contact.last_message_at!,
      updated_at: contact.last_message_at!,
    },
  }));
  await messageRepository(db).insertInbound(inbounds);
  await db
    .updateTable('contacts')
    .set((eb) => ({ last_inbound_at: eb.ref('last_message_at') }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('messages')
        .select('contact_id')
        .where('workspace_id', '=', workspaceId)
        .where('direction', '=', 'inbound'),
    )
    .execute();
  await db.destroy();
}

/**
 * Opens the inbox from another page (a click on the navigation's "Inbox") and times it until its
 * first page of conversations is in the DOM: the API call and the render, in the browser.
 */
export async function timeInboxOpen(page: Page): Promise<number> {
  await page.getByRole('link', { name: 'Templates', exact: true }).click();
  await page.getByRole('heading', { name: 'Templates' }).waitFor();
  // A string, not a function: tsx would wrap inner helpers in its own `__name`, absent in the page.
  return page.evaluate<number>(`(async () => {
    const started = performance.now();
    document.querySelector('nav[aria-label="Sections"] a[href="/inbox"]').click();
    while (document.querySelectorAll('.conversation-list .conversation').length < 50) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return performance.now() - started;
  })()`);
}
