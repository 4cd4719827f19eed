import type { Page } from 'playwright-core';
import { openDatabase } from '../src/db/connection.js';
import { systemClock } from '../src/shared/clock.js';
import { createIdGenerator } from '../src/shared/ids.js';
import { toStoredTimestamp } from '../src/shared/time.js';

/**
 * The thread's figure for `npm run bench:dashboard` (issue 21): a conversation of THREAD_MESSAGES
 * messages opens (click in the inbox → its newest message in the DOM) in under 300 ms. Seeded the
 * way the bench seeds contacts: straight into the server's SQLite file before it starts.
 */
export const THREAD_MESSAGES = Number(process.env.BENCH_THREAD_MESSAGES ?? 5000);
const NEWEST = `Message ${THREAD_MESSAGES}`;

/** One contact with THREAD_MESSAGES messages a minute apart (every third one the team's); returns its id. */
export async function seedThread(dataDir: string, workspaceId: string, userId: string): Promise<string> {
  const { db } = openDatabase({ databaseUrl: null, dataDir });
  const newId = createIdGenerator(systemClock);
  const contactId = newId();
  const start = Date.now() - THREAD_MESSAGES * 60_000;
  const at = (n: number) => toStoredTimestamp(new Date(start + n * 60_000));
  const last = at(THREAD_MESSAGES);
  await db
    .insertInto('contacts')
    .values({
      id: contactId,
      workspace_id: workspaceId,
      phone: '+14155550199',
      name: 'Long Thread',
      custom_attributes: '{}',
      last_message_at: last,
      last_inbound_at: last,
      created_at: at(0),
      updated_at: last,
    })
    .execute();
  for (let i = 1; i <= THREAD_MESSAGES; i += 500) {
    const rows = Array.from({ length: Math.min(500, THREAD_MESSAGES - i + 1) }, (_, k) => {
      const n = i + k;
      const outbound = n % 3 === 0 && n !== THREAD_MESSAGES;
      return {
        id: newId(),
        workspace_id: workspaceId,
        contact_id: contactId,
        direction: outbound ? ('outbound' as const) : ('inbound' as const),
        type: 'text',
        content: JSON.stringify({ body: `Message ${n}` }),
        status: outbound ? 'read' : 'received',
        provider_message_id: `wamid.thread${n}`,
        error: null,
        feed_record: null,
        next_attempt_at: null,
        campaign_id: null,
        delivery: null,
        sender_type: outbound ? ('user' as const) : null,
        sender_id: outbound ? userId : null,
        created_at: at(n),
        updated_at: at(n),
      };
    });
    await db.insertInto('messages').values(rows).execute();
  }
  await db.destroy();
  return contactId;
}

/**
 * Opens the seeded conversation from the inbox `samples` times: the time from the click to its
 * newest message in the DOM (server + render), and the thread request's server time alone.
 */
export async function timeThreadOpen(page: Page, samples: number): Promise<{ openMs: number[]; serverMs: number[] }> {
  const openMs: number[] = [];
  const serverMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    await page.goto('/inbox');
    await page.getByRole('link', { name: /Long Thread/ }).waitFor();
    // A string, not a function: tsx would wrap inner helpers in its own `__name`, absent in the page.
    const sample = await page.evaluate<{ open: number; server: number }>(`(async () => {
      performance.clearResourceTimings();
      const link = [...document.querySelectorAll('a')].find((a) => a.textContent.includes('Long Thread'));
      const started = performance.now();
      link.click();
      const shown = await new Promise((resolve) => {
        const check = () => {
          const last = document.querySelector('.thread .bubble:last-child');
          if (last && last.textContent.includes(${JSON.stringify(NEWEST)})) resolve(performance.now());
          else requestAnimationFrame(check);
        };
        check();
      });
      const request = performance
        .getEntriesByType('resource')
        .find((entry) => /\\/api\\/dashboard\\/conversations\\/[0-9a-f-]+$/.test(entry.name));
      return { open: shown - started, server: request.responseStart - request.requestStart };
    })()`);
    openMs.push(sample.open);
    serverMs.push(sample.server);
  }
  return { openMs, serverMs };
}
