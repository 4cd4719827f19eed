import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage } from '../browser.js';
import { createTemplate, ownerApi } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { inboxWorld } from './inbox-world.js';

const whatsapp = await startWhatsappServer({ outbox: true });
const { server } = whatsapp;
const { cloudOwner, customerWrites } = inboxWorld(whatsapp);

/** Text meant for developers, not for the people who use the dashboard. */
const DEVELOPER_PATTERNS = [
  { name: 'a snake_case name (a field, enum value or JSON pointer)', pattern: /\b[a-z]+_[a-z_]+\b/ },
  { name: 'E.164', pattern: /E\.164/ },
  { name: 'ISO 8601', pattern: /ISO 8601/ },
  { name: 'an ISO 8601 duration', pattern: /\bP(?:T?\d+[HMSD])+\b/ },
  { name: 'an HTTP method and path', pattern: /\b(?:GET|POST|PUT|PATCH|DELETE) \// },
  { name: 'an HTTP status code', pattern: /\b(?:HTTP|status) [1-5]\d\d\b/i },
  { name: 'an API path', pattern: /\/(?:api|v1)\// },
];

/**
 * The words `main` shows a person: code samples, keyboard keys and what they typed into fields are
 * theirs, not hints; the workspace's own data (a template's name, which WhatsApp spells in snake_case)
 * is removed too.
 */
function visibleText(page: Page, ownData: string[]) {
  return page.locator('main').evaluate((main, data) => {
    const words: string[] = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement?.closest('code, kbd, pre, textarea, script, style')) words.push(node.textContent ?? '');
    }
    let text = words.join(' ');
    for (const value of data) text = text.split(value).join(' ');
    // Time zones are listed by their IANA names (Africa/Dar_es_Salaam), as every calendar lists them.
    return text.replace(/\b[A-Z][a-z]+\/[A-Za-z_/+-]+/g, ' ');
  }, ownData);
}

describe(`dashboard: no developer hints (${ENGINE})`, () => {
  test('every page of a seeded workspace speaks to people: no field names, ISO durations, E.164 or HTTP', async () => {
    const owner = await cloudOwner('Plain Words Bakery');
    const api = await ownerApi(server, owner);
    const contactId = await customerWrites(owner, '4915112380001', 'Hello');
    const template = await createTemplate(server.app.services, owner.workspaceId);
    const ok = async (name: string, body: object) => {
      const response = await api.action<{ id: string }>(name, body);
      assert.equal(response.status, 200, `${name}: ${response.text}`);
      return response.body.id;
    };
    const sequenceId = await ok('save-sequence', {
      name: 'Welcome',
      exit_on: { reply: true, tags: [] },
      steps: [{ delay: 'P1D', action: { type: 'add_tag', tag: 'welcomed' } }],
    });
    const flowId = await ok('save-flow', {
      name: 'Front desk',
      definition: {
        start: 'ask',
        keywords: ['help'],
        nodes: [
          { id: 'ask', type: 'send_text', text: 'How can we help?', next: 'wait' },
          { id: 'wait', type: 'wait_for_reply', timeout: 'PT2H', next: 'handoff', on_timeout: 'end' },
          { id: 'handoff', type: 'handoff', note: 'Wants a person' },
          { id: 'end', type: 'end' },
        ],
      },
    });
    const campaignId = await ok('create-campaign', {
      name: 'Spring',
      template_id: template.id,
      variables: ['{{contact.name}}', 'SPRING'],
      audience: { contact_ids: [contactId] },
    });
    await ok('create-quick-reply', { shortcut: 'hours', body: 'We open at 9.' });

    const { page } = await newPage(server);
    await logIn(page, owner);
    const pages = [
      '/inbox',
      `/inbox/${contactId}`,
      '/contacts',
      '/contacts/new',
      '/contacts/import',
      '/contacts/tags',
      `/contacts/${contactId}`,
      '/templates',
      '/templates/new',
      `/templates/${template.id}`,
      '/sequences',
      '/sequences/new',
      `/sequences/${sequenceId}`,
      '/flows',
      '/flows/new',
      `/flows/${flowId}`,
      '/campaigns',
      '/campaigns/new',
      `/campaigns/${campaignId}`,
      '/reports',
      '/simulator',
      '/settings/tokens',
      '/settings/channel',
      '/settings/workspace',
      '/settings/opt-out',
      '/settings/team',
      '/settings/account',
      '/settings/events',
      '/settings/quick-replies',
    ];
    const found: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      await page.waitForFunction(() => !document.querySelector('main .loading'));
      const text = await visibleText(page, [template.name]);
      for (const { name, pattern } of DEVELOPER_PATTERNS) {
        for (const match of text.matchAll(new RegExp(pattern, 'g'))) {
          found.push(`${path}: ${name}: “${text.slice(Math.max(0, match.index - 40), match.index + 40)}”`);
        }
      }
    }
    assert.deepEqual(found, []);
  });
});
