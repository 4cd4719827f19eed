import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from 'playwright-core';
import { Agent, request } from 'undici';
import { generatedCertificate, NodeProcess, parleyCli } from '../bench/processes.js';

/**
 * `npm run screenshots`: the pictures of the dashboard in README.md and docs/dashboard.md
 * (docs/screenshots/*.png), taken in Debian's Chromium from a workspace seeded only through the real
 * surfaces — the CLI, the REST API and the simulator channel — on a fresh SQLite DATA_DIR, so they show
 * what a user of this commit sees.
 */
const root = path.join(import.meta.dirname, '..');
const outDir = path.join(root, 'docs', 'screenshots');
const port = Number(process.env.SCREENSHOTS_PORT ?? 18460);
const baseUrl = `https://127.0.0.1:${port}`;
const EMAIL = 'maria@northwind.example';
const PASSWORD = 'screenshots-password';

type Json = Record<string, unknown>;
const log = (message: string) => console.log(`[screenshots] ${message}`);

/** A REST client for one token, trusting only the server's generated certificate. */
function restClient(token: string, ca: string) {
  const dispatcher = new Agent({ connect: { ca } });
  return async <T = Json>(action: string, body: Json): Promise<T> => {
    const res = await request(`${baseUrl}/api/v1/actions/${action}`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.body.json()) as T;
    if (res.statusCode >= 300) throw new Error(`${action}: ${res.statusCode} ${JSON.stringify(answer)}`);
    return answer;
  };
}
type Rest = ReturnType<typeof restClient>;

const PEOPLE = [
  { name: 'Amara Okafor', phone: '+14155550101', tags: ['vip'], city: 'Lagos' },
  { name: 'Tomás Rivera', phone: '+14155550102', tags: ['vip', 'wholesale'], city: 'Seville' },
  { name: 'Aiko Tanaka', phone: '+14155550103', tags: ['vip'], city: 'Osaka' },
  { name: 'Priya Nair', phone: '+14155550104', tags: ['newsletter'], city: 'Kochi' },
  { name: 'Lukas Becker', phone: '+14155550105', tags: ['vip', 'newsletter'], city: 'Leipzig' },
];

const SUPPORT_FLOW = {
  start: 'menu',
  keywords: ['Help'],
  nodes: [
    {
      id: 'menu',
      type: 'send_buttons',
      text: 'Hi {{contact.first_name}}, what can we help with?',
      buttons: [
        { id: 'order', title: 'My order' },
        { id: 'person', title: 'Talk to a person' },
      ],
      next: 'wait',
    },
    { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route', on_timeout: 'bye' },
    {
      id: 'route',
      type: 'branch',
      branches: [
        { when: { button_id: 'person' }, next: 'handoff' },
        { when: { button_id: 'order' }, next: 'order' },
      ],
      default: 'bye',
    },
    { id: 'order', type: 'send_text', text: 'Orders ship within two days; you get a tracking link.', next: 'end' },
    { id: 'handoff', type: 'handoff', note: 'Asked for a person from the help menu' },
    { id: 'bye', type: 'send_text', text: 'Write "Help" whenever you need us.', next: 'end' },
    { id: 'end', type: 'end' },
  ],
};

/** Contacts, a conversation per contact, a flow that hands one over, and a campaign to the VIPs. */
async function seed(rest: Rest): Promise<{ contactIds: string[]; flowId: string; campaignId: string }> {
  const ids: string[] = [];
  for (const person of PEOPLE) {
    const contact = await rest<{ id: string }>('create-contact', {
      name: person.name,
      phone: person.phone,
      tags: person.tags,
      custom_attributes: { city: person.city },
    });
    ids.push(contact.id);
  }
  const flow = await rest<{ id: string }>('save-flow', { name: 'Help menu', definition: SUPPORT_FLOW });
  const template = await rest<{ id: string }>('create-template', {
    name: 'spring_collection',
    category: 'MARKETING',
    translations: [
      {
        language: 'en_US',
        body: 'Hi {{1}}, our spring collection is here: {{2}} off for you this week.',
        footer: 'Reply STOP to opt out',
        buttons: [{ type: 'QUICK_REPLY', text: 'Show me' }],
        examples: { '1': 'Amara', '2': '15%' },
      },
    ],
  });
  await inbound(rest, PEOPLE[0]!.phone, { text: 'Hello! Did my order #4411 ship yet?' });
  await rest('send-text-message', {
    phone: PEOPLE[0]!.phone,
    message: 'Hi Amara, it left our warehouse this morning. Tracking: NW-88213.',
  });
  await inbound(rest, PEOPLE[0]!.phone, { text: 'Great, thank you! Can I change the delivery address?' });
  await inbound(rest, PEOPLE[1]!.phone, { text: 'Help' });
  await inbound(rest, PEOPLE[1]!.phone, { button_reply: { id: 'person', title: 'Talk to a person' } });
  await inbound(rest, PEOPLE[2]!.phone, { text: 'Do you deliver to Kyoto?' });
  await inbound(rest, PEOPLE[3]!.phone, { text: 'Help' });
  await inbound(rest, PEOPLE[3]!.phone, { button_reply: { id: 'order', title: 'My order' } });
  log('waiting for the simulator to approve the template');
  await untilApproved(rest, template.id);
  const campaign = await rest<{ id: string }>('create-campaign', {
    name: 'Spring collection — VIPs',
    template_id: template.id,
    variables: { '1': '{{contact.first_name}}', '2': '15%' },
    audience: { tag: 'vip' },
  });
  await inbound(rest, PEOPLE[4]!.phone, { text: 'Show me' });
  return { contactIds: ids, flowId: flow.id, campaignId: campaign.id };
}

const inbound = (rest: Rest, phone: string, message: Json) => rest('simulate-inbound-message', { phone, ...message });

async function untilApproved(rest: Rest, templateId: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const template = await rest<{ status: string }>('get-template', { template_id: templateId });
    if (template.status === 'APPROVED') return;
    await sleep(500);
  }
  throw new Error('the simulator did not approve the template within a minute');
}

/** A page once `ready` shows; `click` first clicks what opens the part to show (a card's form). */
async function shoot(page: Page, url: string, ready: string, file: string, fullPage = false, click?: string) {
  await page.goto(url);
  if (click) await page.locator(click).first().click();
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(outDir, file), fullPage });
  log(`wrote docs/screenshots/${file}`);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-screenshots-'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  const setup = await parleyCli(
    ['setup', '--workspace', 'Northwind Goods', '--email', EMAIL, '--password', PASSWORD],
    env,
  );
  const workspaceId = (setup.workspace as { id: string }).id;
  const issued = await parleyCli(['token', 'create', '--workspace', workspaceId, '--name', 'Screenshots'], env);
  // An AI agent's token whose sends wait for a person (decision 0160).
  const agentToken = await parleyCli(
    ['token', 'create', '--workspace', workspaceId, '--name', 'Support agent', '--mode', 'approval'],
    env,
  );
  const server = new NodeProcess('parley', 'src/main.ts', env);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    await server.waitUntilReady(`${baseUrl}/healthz`, () => generatedCertificate(dataDir));
    const rest = restClient(String(issued.token), generatedCertificate(dataDir)!);
    const { contactIds, flowId, campaignId } = await seed(rest);
    const agent = restClient(String(agentToken.token), generatedCertificate(dataDir)!);
    await agent('send-text-message', {
      phone: PEOPLE[2]!.phone,
      message: 'Yes! We deliver to Kyoto in 3 to 5 working days, and shipping is free over ¥8,000.',
      reasoning: 'Kyoto is in our Japan shipping zone (delivery policy, section 2); she asked before ordering.',
    });
    const contactId = contactIds[0]!;
    await sleep(1500); // the outbox sends the campaign and the simulator reports its statuses
    fs.mkdirSync(outDir, { recursive: true });
    const context = await browser.newContext({
      baseURL: baseUrl,
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    // An agent closes one conversation, so the reports have a resolution time.
    await page.goto(`/inbox/${contactIds[2]!}`);
    await page.getByRole('button', { name: 'Mark done' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(contactIds[2]!));
    await shoot(page, `/inbox/${contactId}`, '.thread .bubble', 'inbox.png');
    await shoot(page, `/inbox/${contactIds[2]!}`, '.held-send', 'held-send.png');
    await shoot(page, `/contacts/${contactId}`, 'h1', 'contact.png');
    // The flow builder with its first card's form open beside the canvas.
    await shoot(page, `/flows/${flowId}`, '.node-panel', 'flow-editor.png', false, '.react-flow__node');
    await shoot(page, `/campaigns/${campaignId}`, 'h1', 'campaign.png', true);
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await shoot(page, '/contacts', '.contacts-table tbody tr', 'contacts.png');
    await page.setViewportSize({ width: 375, height: 740 });
    await shoot(page, `/inbox/${contactId}`, '.thread .bubble', 'inbox-phone.png');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, `/reports?from=${weekAgo}&to=${today}`, 'table', 'reports.png', true);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
