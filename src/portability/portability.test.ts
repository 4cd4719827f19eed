import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { GENERATED_SCHEMAS, renderSchema } from '../../scripts/generate-schemas.js';
import { createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { cliJson, REPO_ROOT, runCli, stderrLines } from '../../test/cli.js';
import type { Campaign } from '../campaigns/campaign.schema.js';
import type { Contact } from '../contacts/contact.schema.js';
import { AppError } from '../shared/errors.js';
import type { Template } from '../templates/template.schema.js';
import type { ImportSummary, WorkspaceExport } from './portability.service.js';
import type { WorkspaceData } from './workspace-data.schema.js';
import { validateWorkspaceData } from './workspace-data.validation.js';

const server = await startServer();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-import-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const EXAMPLE_FILE = path.join(REPO_ROOT, 'docs/examples/workspace.json');
const EMPTY = {
  version: 1,
  tags: [],
  templates: [],
  contacts: [],
  flows: [],
  sequences: [],
  campaigns: [],
  rate_cards: [],
  knowledge: { templates: false, quick_replies: false, sources: [] },
};
/** A Markdown document of the sample: its headings are part of its text. */
const RETURNS_MD = '# Returns\n\n## Within 30 days\n\nUnworn items come back free of charge within 30 days.\n';

let fileCounter = 0;
/** Writes a document to a fresh file and returns its path. */
function writeFile(document: unknown): string {
  const file = path.join(tmp, `workspace-${++fileCounter}.json`);
  fs.writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document));
  return file;
}

const importFile = (ws: TestWorkspace, file: string) =>
  cliJson<ImportSummary>(server, 'import', '--workspace', ws.workspaceId, file);
const exportCli = (ws: TestWorkspace) => cliJson<WorkspaceExport>(server, 'export', '--workspace', ws.workspaceId);
const exportInProcess = (ws: TestWorkspace) => server.app.services.portability.export({ workspaceId: ws.workspaceId });
const MINUTE = 60_000;
const formatted = (date: Date) => date.toISOString().replace('Z', '+00:00');

async function createCampaign(ws: TestWorkspace, body: object): Promise<Campaign> {
  const response = await ws.action<Campaign>('create-campaign', body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function listCampaigns(ws: TestWorkspace): Promise<Campaign[]> {
  const response = await ws.action<Campaign[]>('list-campaigns', {});
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Everything that would show a campaign written or sent: the campaigns, the pending jobs, the messages. */
async function sendingState(ws: TestWorkspace) {
  const { db } = server.app.services.deps;
  const of = (table: 'jobs' | 'messages') =>
    db.selectFrom(table).selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('id').execute();
  return { campaigns: await listCampaigns(ws), jobs: await of('jobs'), messages: await of('messages') };
}

/** A workspace with an approved two-placeholder template and one contact, as campaigns need. */
async function campaignWorkspace() {
  const ws = await createWorkspace(server);
  const template = await createTemplate(server.app.services, ws.workspaceId);
  const contact = await ws.action<Contact>('create-contact', { phone: '+44 7911 123499', name: 'Grace', tags: 'vip' });
  const base = { template_id: template.id, variables: ['{{contact.name}}', 'ORD-1'] };
  return { ws, template, contact: contact.body, base };
}

/** A document touching every part of the format; the bad-field cases below each break one field of it. */
function sampleDocument(): WorkspaceData {
  return {
    version: 1,
    tags: [{ name: 'vip' }, { name: ' Wholesale ' }],
    templates: [
      {
        name: 'order_update',
        category: 'UTILITY',
        translations: [
          {
            language: 'en_US',
            status: 'APPROVED',
            body: 'Hi {{1}}, order {{2}} has shipped.',
            header_type: 'TEXT',
            header_content: 'Shipping update',
            footer: 'Acme Ltd',
            buttons: [
              { type: 'URL', text: 'Track', url: 'https://acme.example/t/{{1}}' },
              { type: 'QUICK_REPLY', text: 'Help' },
            ],
          },
          { language: 'fr', status: 'PENDING', body: 'Bonjour {{1}}, la commande {{2}} est partie.' },
        ],
      },
      {
        name: 'welcome',
        category: 'MARKETING',
        translations: [{ language: 'en', status: 'APPROVED', body: 'Welcome, {{1}}!' }],
      },
    ],
    contacts: [
      {
        phone: '+1 (415) 555-0150',
        name: 'Ada Lovelace',
        email: 'Ada@Example.com',
        tags: ['VIP', 'new'],
        custom_attributes: { plan: 'pro', seats: 3, address: { city: 'London', lines: ['12 St James’s Sq'] } },
        opted_out: false,
      },
      { phone: '+447911123456', opted_out: true },
    ],
    flows: [
      {
        name: 'Support bot',
        definition: {
          start: 'ask',
          keywords: ['help'],
          nodes: [
            {
              id: 'ask',
              type: 'send_template',
              template_name: 'order_update',
              variables: ['{{contact.name}}', 'ORD-1'],
              next: 'end',
            },
            { id: 'end', type: 'end' },
          ],
        },
      },
    ],
    sequences: [
      {
        name: 'Onboarding',
        definition: {
          steps: [
            {
              action: {
                type: 'send_template',
                template_name: 'order_update',
                variables: ['{{contact.name}}', 'ORD-1'],
              },
            },
            { delay: 'P1D', action: { type: 'start_flow', flow_name: 'Support bot' } },
          ],
          exit_on: { reply: true },
        },
      },
    ],
    campaigns: [
      {
        name: 'Welcome back',
        template_name: 'order_update',
        language: 'en_US',
        variables: ['{{contact.name}}', 'ORD-1'],
        audience: { tag: 'vip' },
        scheduled_at: '2029-12-01T09:00:00+00:00',
        status: 'sent',
      },
      {
        name: 'Spring welcome',
        template_name: 'welcome',
        language: 'en',
        variables: ['{{contact.name}}'],
        audience: { contact_phones: ['+1 (415) 555-0150'] },
        scheduled_at: '2030-03-01T09:00:00+01:00',
        status: 'scheduled',
        over_limit: 'wait',
      },
    ],
    // Markets as Meta's card or a country's English name spells them, in any case.
    rate_cards: [
      {
        effective_from: '2026-01-01',
        currency: 'EUR',
        source: 'meta-eur.csv',
        rates: { brazil: { marketing: 0.0625, utility: 0.008 }, India: { marketing: 0.0107 } },
      },
    ],
    knowledge: {
      templates: true,
      sources: [
        { kind: 'qa', question: ' Do you deliver on Sundays? ', answer: 'Yes, in Lisbon, before noon.' },
        { kind: 'document', title: 'Returns', content: RETURNS_MD, format: 'markdown', file_name: 'returns.md' },
      ],
    },
  };
}

/** The summary's counts for sampleDocument() that do not depend on what the workspace already had. */
const COUNTS = { tags: 2, templates: 2, flows: 1, sequences: 1, knowledge: { created: 2, updated: 0 } };

/** What export prints for sampleDocument(): normalised phones and emails, tags merged case-insensitively. */
const SAMPLE_EXPORTED: WorkspaceExport = {
  version: 1,
  tags: [{ name: 'new' }, { name: 'vip' }, { name: 'Wholesale' }],
  templates: [
    {
      name: 'order_update',
      category: 'UTILITY',
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          body: 'Hi {{1}}, order {{2}} has shipped.',
          header_type: 'TEXT',
          header_content: 'Shipping update',
          footer: 'Acme Ltd',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://acme.example/t/{{1}}' },
            { type: 'QUICK_REPLY', text: 'Help' },
          ],
        },
        {
          language: 'fr',
          status: 'PENDING',
          body: 'Bonjour {{1}}, la commande {{2}} est partie.',
          header_type: null,
          header_content: null,
          footer: null,
          buttons: [],
        },
      ],
    },
    {
      name: 'welcome',
      category: 'MARKETING',
      translations: [
        {
          language: 'en',
          status: 'APPROVED',
          body: 'Welcome, {{1}}!',
          header_type: null,
          header_content: null,
          footer: null,
          buttons: [],
        },
      ],
    },
  ],
  contacts: [
    {
      phone: '+14155550150',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      tags: ['new', 'vip'],
      custom_attributes: { plan: 'pro', seats: 3, address: { city: 'London', lines: ['12 St James’s Sq'] } },
      opted_out: false,
    },
    { phone: '+447911123456', tags: [], custom_attributes: {}, opted_out: true },
  ],
  flows: [
    {
      name: 'Support bot',
      definition: {
        start: 'ask',
        keywords: ['help'],
        nodes: [
          {
            id: 'ask',
            type: 'send_template',
            template_name: 'order_update',
            variables: ['{{contact.name}}', 'ORD-1'],
            next: 'end',
          },
          { id: 'end', type: 'end' },
        ],
      },
    },
  ],
  sequences: [
    {
      name: 'Onboarding',
      definition: {
        steps: [
          {
            action: { type: 'send_template', template_name: 'order_update', variables: ['{{contact.name}}', 'ORD-1'] },
          },
          { delay: 'P1D', action: { type: 'start_flow', flow_name: 'Support bot' } },
        ],
        exit_on: { reply: true },
      },
    },
  ],
  // The sent campaign is history: it was not re-created, so it is not exported either.
  campaigns: [
    {
      name: 'Spring welcome',
      template_name: 'welcome',
      language: 'en',
      variables: ['{{contact.name}}'],
      audience: { contact_phones: ['+14155550150'] },
      scheduled_at: '2030-03-01T08:00:00.000+00:00',
      status: 'scheduled',
      over_limit: 'wait',
    },
  ],
  rate_cards: [
    {
      effective_from: '2026-01-01',
      currency: 'EUR',
      source: 'meta-eur.csv',
      rates: { Brazil: { marketing: 0.0625, utility: 0.008 }, India: { marketing: 0.0107 } },
    },
  ],
  knowledge: {
    templates: true,
    quick_replies: false,
    sources: [
      { kind: 'qa', question: 'Do you deliver on Sundays?', answer: 'Yes, in Lisbon, before noon.' },
      { kind: 'document', title: 'Returns', content: RETURNS_MD, format: 'markdown', file_name: 'returns.md' },
    ],
  },
};

async function optedOutAt(ws: TestWorkspace, phone: string): Promise<string | null> {
  const row = await server.app.services.deps.db
    .selectFrom('contacts')
    .select('opted_out_at')
    .where('workspace_id', '=', ws.workspaceId)
    .where('phone', '=', phone)
    .executeTakeFirstOrThrow();
  return row.opted_out_at;
}

/** `{"k": {"k": … 1}}`, `levels` objects deep. */
function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { k: 1 };
  for (let level = 1; level < levels; level++) value = { k: value };
  return value;
}

/** One broken field each: [label, how to break sampleDocument(), the problem reported, also run through the CLI]. */
const BAD_FIELDS: [string, (d: WorkspaceData) => void, string, boolean][] = [
  [
    'footer of 61 characters',
    (d) => (d.templates![1]!.translations[0]!.footer = 'x'.repeat(61)),
    '/templates/1/translations/0/footer: must be at most 60 characters',
    true,
  ],
  [
    'bad phone',
    (d) => (d.contacts![1]!.phone = '+1 555'),
    '/contacts/1/phone: must be a valid international phone number',
    true,
  ],
  [
    'wrong type',
    (d) => Object.assign(d.contacts![1]!, { opted_out: 'yes' }),
    '/contacts/1/opted_out: must be true or false',
    true,
  ],
  [
    'unknown property',
    (d) => Object.assign(d.contacts![1]!, { nickname: 'G' }),
    '/contacts/1/nickname: is not a known property',
    true,
  ],
  [
    'header without content',
    (d) => (d.templates![1]!.translations[0]!.header_type = 'TEXT'),
    "/templates/1/translations/0/header_content: a text header needs its content (the text, or the media's link)",
    true,
  ],
  [
    'bad email',
    (d) => (d.contacts![1]!.email = 'grace-at-example'),
    '/contacts/1/email: must be an email address',
    false,
  ],
  [
    'bad status',
    (d) => Object.assign(d.templates![1]!.translations[0]!, { status: 'LIVE' }),
    '/templates/1/translations/0/status: must be one of APPROVED, PENDING',
    false,
  ],
  ['blank tag name', (d) => (d.tags![1]!.name = '   '), '/tags/1/name: must not be blank', false],
  [
    'NUL character',
    (d) => (d.contacts![1]!.custom_attributes = { note: 'a\u0000b' }),
    '/contacts/1/custom_attributes/note: must not contain the NUL character',
    false,
  ],
  [
    'lone surrogate',
    (d) => (d.contacts![1]!.name = 'Grace \ud800'),
    '/contacts/1/name: must not contain a lone UTF-16 surrogate',
    true,
  ],
  [
    'lone surrogate in a property name',
    (d) => (d.contacts![1]!.custom_attributes = { '\udc00': 'x' }),
    '/contacts/1/custom_attributes: a property name must not contain a lone UTF-16 surrogate',
    true,
  ],
  [
    'nested too deep',
    (d) => (d.contacts![1]!.custom_attributes = nestedObject(100)),
    `/contacts/1/custom_attributes${'/k'.repeat(61)}: nests deeper than 64 levels`,
    true,
  ],
  [
    'sequence naming an unknown template',
    (d) =>
      Object.assign(d.sequences![0]!.definition.steps as object[], {
        0: { action: { type: 'send_template', template_name: 'nope' } },
      }),
    '/sequences/0/definition/steps/0/action/template_name: names no template of this workspace or document',
    true,
  ],
  [
    'flow with a dangling edge',
    (d) => Object.assign((d.flows![0]!.definition.nodes as object[])[0]!, { next: 'nowhere' }),
    '/flows/0/definition/nodes/0/next: points at unknown node "nowhere"',
    false,
  ],
  [
    'campaign naming an unknown template',
    (d) => (d.campaigns![1]!.template_name = 'nope'),
    '/campaigns/1/template_name: names no template of this workspace or document',
    true,
  ],
  [
    'scheduled campaign without a template',
    (d) => (d.campaigns![1]!.template_name = null),
    '/campaigns/1/template_name: a scheduled campaign needs a template',
    false,
  ],
  [
    'campaign to an unknown tag',
    (d) => (d.campaigns![1]!.audience = { tag: 'nobody' }),
    '/campaigns/1/audience/tag: names no tag of this workspace or document',
    false,
  ],
  [
    'campaign to a phone that is no contact',
    (d) => (d.campaigns![1]!.audience = { contact_phones: ['+14155550150', '+1 415 555 0199'] }),
    '/campaigns/1/audience/contact_phones/1: names no contact of this workspace or document',
    false,
  ],
  [
    'campaign in a translation that is not approved',
    (d) => Object.assign(d.campaigns![1]!, { template_name: 'order_update', language: 'fr' }),
    '/campaigns/1/language: The fr translation is PENDING',
    false,
  ],
  [
    'campaign with too few variables',
    (d) => (d.campaigns![1]!.variables = []),
    '/campaigns/1/variables: the template expects 1 value(s) (1); 0 given; missing 1',
    false,
  ],
  [
    'campaign with a time that is not one',
    (d) => (d.campaigns![1]!.scheduled_at = 'next Tuesday'),
    '/campaigns/1/scheduled_at: must be an ISO 8601 time with an offset',
    false,
  ],
  [
    'rate card with a market Meta has none of',
    (d) => (d.rate_cards![0]!.rates = { Atlantis: { marketing: 0.1 } }),
    '/rate_cards/0/rates/Atlantis: is not a market of Meta’s rate card',
    true,
  ],
  [
    'rate card in a second currency',
    (d) => d.rate_cards!.push({ ...d.rate_cards![0]!, effective_from: '2026-02-01', currency: 'USD' }),
    '/rate_cards/1/currency: must be EUR, the currency the workspace already prices in',
    false,
  ],
  [
    'knowledge document over the size limit in bytes',
    (d) => (d.knowledge!.sources![1] = { ...d.knowledge!.sources![1]!, content: 'é'.repeat(600_000) } as never),
    '/knowledge/sources/1/content: is larger than 1024 KiB: split the document into smaller ones',
    false,
  ],
  [
    'knowledge Q&A with a blank question',
    (d) => Object.assign(d.knowledge!.sources![0]!, { question: '   ' }),
    '/knowledge/sources/0/question: must not be blank',
    true,
  ],
  [
    'knowledge document without a format',
    (d) => delete (d.knowledge!.sources![1] as { format?: string }).format,
    '/knowledge/sources/1/format: is required',
    false,
  ],
  [
    'unknown template category',
    (d) => Object.assign(d.templates![1]!, { category: 'PROMO' }),
    '/templates/1/category: must be one of MARKETING, UTILITY, AUTHENTICATION',
    false,
  ],
];

/** The code of the rule each of these BAD_FIELDS breaks (the dashboard words the problem by it). */
const RULE_CODES: Record<string, string> = {
  'bad phone': 'contacts.phone_format',
  'bad email': 'contacts.email_format',
  'sequence naming an unknown template': 'imports.unknown_template',
  'campaign naming an unknown template': 'imports.unknown_template',
  'scheduled campaign without a template': 'imports.campaign_without_template',
  'campaign to an unknown tag': 'imports.unknown_tag',
  'campaign to a phone that is no contact': 'imports.unknown_contact',
  'rate card with a market Meta has none of': 'reports.unknown_market',
  'rate card in a second currency': 'reports.currency_of_workspace',
  'knowledge document over the size limit in bytes': 'knowledge.document_too_large',
};

/** The field paths a validation failure names. */
function problemFields(document: unknown): string[] {
  try {
    validateWorkspaceData(document);
  } catch (error) {
    if (error instanceof AppError) return error.fieldErrors.map((e) => `${e.field}: ${e.message}`);
    throw error;
  }
  return [];
}

describe(`workspace data: parley import / export (${ENGINE})`, () => {
  test('import then export › round-trips tags, templates with translations and contacts', async () => {
    const ws = await createWorkspace(server);
    const summary = await importFile(ws, writeFile(sampleDocument()));
    assert.deepEqual(summary, {
      ...COUNTS,
      contacts: { created: 2, updated: 0 },
      campaigns: { created: 1, updated: 0, skipped: 1 },
      rate_cards: { created: 1, skipped: 0 },
    });
    assert.deepEqual(await exportCli(ws), SAMPLE_EXPORTED);
  });

  test('import › re-importing is idempotent: contacts are updated, not created, and nothing changes', async () => {
    const ws = await createWorkspace(server);
    const file = writeFile(sampleDocument());
    await importFile(ws, file);
    const optedOut = await optedOutAt(ws, '+447911123456');
    assert.ok(optedOut);

    const again = await importFile(ws, file);
    assert.deepEqual(again, {
      ...COUNTS,
      contacts: { created: 0, updated: 2 },
      campaigns: { created: 0, updated: 1, skipped: 1 },
      rate_cards: { created: 0, skipped: 1 },
      knowledge: { created: 0, updated: 2 },
    });
    assert.deepEqual(await exportInProcess(ws), SAMPLE_EXPORTED);
    assert.equal(await optedOutAt(ws, '+447911123456'), optedOut, 'the original opt-out time is kept');
  });

  test('export › its output imports into an empty workspace and exports identically', async () => {
    const source = await createWorkspace(server);
    await server.app.services.portability.import({ workspaceId: source.workspaceId }, sampleDocument());
    const exported = await exportInProcess(source);
    assert.deepEqual(exported, SAMPLE_EXPORTED);
    const target = await createWorkspace(server);
    const summary = await importFile(target, writeFile(exported));
    assert.deepEqual(summary, {
      ...COUNTS,
      tags: 3,
      contacts: { created: 2, updated: 0 },
      campaigns: { created: 1, updated: 0, skipped: 0 },
      rate_cards: { created: 1, skipped: 0 },
    });
    assert.deepEqual(await exportInProcess(target), exported);
  });

  test('knowledge › the export carries what the team typed or uploaded, not chunks nor the AI model; import rebuilds the index', async () => {
    const source = await createWorkspace(server);
    const ok = async (name: string, body: object) => {
      const response = await source.action(name, body);
      assert.equal(response.status, 200, `${name}: ${response.text}`);
    };
    await ok('create-knowledge-qa', { question: 'Can I pay by card?', answer: 'Yes, every card but Amex.' });
    const guide = '# Care guide\n\n## Orchids\n\nWater orchids once a week with a little lukewarm water.\n';
    await ok('create-knowledge-document', { file: { name: 'care.md', data: Buffer.from(guide).toString('base64') } });
    await ok('create-knowledge-document', { title: 'Opening hours', content: 'Open 9 to 6.', format: 'text' });
    await ok('update-knowledge-settings', { quick_replies: true });
    const secretKey = 'sk-never-exported-0123456789';
    await ok('save-ai-settings', { base_url: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', api_key: secretKey });

    const printed = await runCli(server, 'export', '--workspace', source.workspaceId);
    assert.equal(printed.code, 0, printed.stderr);
    assert.ok(!printed.stdout.includes(secretKey) && !printed.stdout.includes('api.openai.com'), 'no AI model in it');
    assert.ok(!printed.stdout.includes('"chunks"'), 'no chunks in it');
    const exported = JSON.parse(printed.stdout) as WorkspaceExport;
    assert.deepEqual(exported.knowledge, {
      templates: false,
      quick_replies: true,
      sources: [
        { kind: 'qa', question: 'Can I pay by card?', answer: 'Yes, every card but Amex.' },
        { kind: 'document', title: 'care', content: guide, format: 'markdown', file_name: 'care.md' },
        { kind: 'document', title: 'Opening hours', content: 'Open 9 to 6.', format: 'text' },
      ],
    });

    const target = await createWorkspace(server);
    const summary = await importFile(target, writeFile(exported));
    assert.deepEqual(summary.knowledge, { created: 3, updated: 0 });
    const found = await target.action<{ chunks: { source_title: string; heading: string; text: string }[] }>(
      'search-knowledge',
      { query: 'how often should I water orchids' },
    );
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(
      found.body.chunks.slice(0, 1).map((c) => [c.source_title, c.heading]),
      [['care', 'Care guide › Orchids']],
      'the chunks were cut again from the text, headings and all',
    );
    const settings = await target.action<{ templates: boolean; quick_replies: boolean }>('get-knowledge-settings', {});
    assert.deepEqual([settings.body.templates, settings.body.quick_replies], [false, true]);
    const ai = await target.action<{ enabled: boolean; base_url: string | null; api_key_set: boolean }>(
      'get-ai-settings',
      {},
    );
    assert.deepEqual([ai.body.enabled, ai.body.base_url, ai.body.api_key_set], [false, null, false]);
    assert.deepEqual((await exportInProcess(target)).knowledge, exported.knowledge, 'exports identically');

    // An edited answer replaces the pair of the same question; an export without knowledge leaves it be.
    exported.knowledge.sources[0] = { kind: 'qa', question: 'Can I pay by card?', answer: 'Yes, any card.' };
    assert.deepEqual((await importFile(target, writeFile(exported))).knowledge, { created: 0, updated: 3 });
    const older = await importFile(target, writeFile({ version: 1, tags: [{ name: 'vip' }] }));
    assert.deepEqual(older.knowledge, { created: 0, updated: 0 });
    const kept = (await exportInProcess(target)).knowledge!;
    assert.equal(kept.sources?.length, 3);
    assert.deepEqual(kept.sources?.[0], { kind: 'qa', question: 'Can I pay by card?', answer: 'Yes, any card.' });
  });

  test('knowledge › an import that would pass the sources a workspace keeps is refused whole', async () => {
    const ws = await createWorkspace(server);
    assert.equal((await ws.action('create-knowledge-qa', { question: 'Kept?', answer: 'Yes.' })).status, 200);
    const sources = Array.from({ length: 2000 }, (_, i) => ({ kind: 'qa' as const, question: `Q${i}?`, answer: 'A.' }));
    await assert.rejects(
      server.app.services.portability.import(
        { workspaceId: ws.workspaceId },
        { version: 1, tags: [{ name: 'new' }], knowledge: { sources } },
      ),
      (error: unknown) =>
        error instanceof AppError &&
        error.fieldErrors.some(
          (e) =>
            e.field === '/knowledge/sources' &&
            e.code === 'knowledge.too_many_sources' &&
            e.message === 'would make 2001 sources: a workspace keeps at most 2000',
        ),
    );
    assert.deepEqual((await exportInProcess(ws)).tags, [], 'nothing written');
  });

  test('import › upserts into existing data: adds tags, merges attributes, can opt a contact back in', async () => {
    const ws = await createWorkspace(server);
    await ws.action('create-contact', { phone: '+447911123456', name: 'Grace', tags: 'old', metadata: { a: 1 } });
    const summary = await importFile(
      ws,
      writeFile({
        version: 1,
        contacts: [{ phone: '+44 7911 123456', tags: ['new'], custom_attributes: { a: null, b: 2 }, opted_out: false }],
      }),
    );
    assert.deepEqual(summary.contacts, { created: 0, updated: 1 });
    const contact = await ws.action<Contact>('get-contact', { phone: '+447911123456' });
    assert.equal(contact.body.name, 'Grace', 'absent fields keep their values');
    assert.deepEqual(contact.body.tags, ['new', 'old']);
    assert.deepEqual(contact.body.custom_attributes, { b: 2 });
    assert.equal(contact.body.opted_out, false);
  });

  test('campaigns › export → import into a fresh workspace re-creates the scheduled one, sent when due', async () => {
    const { ws: source, template, contact, base } = await campaignWorkspace();
    const due = new Date(server.clock.now().getTime() + 10 * MINUTE);
    const scheduledAt = due.toISOString();
    await createCampaign(source, {
      ...base,
      name: 'Later',
      audience: { contact_ids: [contact.id] },
      scheduled_at: scheduledAt,
    });
    await createCampaign(source, { ...base, name: 'Now', audience: { tag: 'vip' } });
    await server.app.services.scheduler.runDue(source.workspaceId);

    const exported = await exportCli(source);
    const definition = { template_name: template.name, language: 'en_US', variables: base.variables };
    assert.deepEqual(exported.campaigns, [
      {
        name: 'Later',
        ...definition,
        audience: { contact_phones: ['+447911123499'] },
        scheduled_at: formatted(due),
        status: 'scheduled',
        over_limit: 'send',
      },
      {
        name: 'Now',
        ...definition,
        audience: { tag: 'vip' },
        scheduled_at: null,
        status: 'sending',
        over_limit: 'send',
      },
    ]);

    const target = await createWorkspace(server);
    const summary = await importFile(target, writeFile(exported));
    assert.deepEqual(summary.campaigns, { created: 1, updated: 0, skipped: 1 });
    const [copy, ...others] = await listCampaigns(target);
    assert.deepEqual(others, [], 'the campaign already sending is history: not re-created');
    const grace = await target.action<Contact>('get-contact', { phone: '+447911123499' });
    assert.deepEqual(
      [copy!.name, copy!.status, copy!.template_name, copy!.variables, copy!.audience, copy!.scheduled_at],
      ['Later', 'scheduled', template.name, base.variables, { contact_ids: [grace.body.id] }, formatted(due)],
    );
    assert.deepEqual((await exportInProcess(target)).campaigns, [exported.campaigns?.[0]]);

    assert.equal(await server.app.services.scheduler.runDue(target.workspaceId), 0, 'nothing before its time');
    server.clock.advance(10 * MINUTE);
    await server.app.services.scheduler.runDue(target.workspaceId);
    const dispatched = await target.action<Campaign>('get-campaign', { campaign_id: copy!.id });
    assert.equal(dispatched.body.status, 'sending');
    assert.deepEqual([dispatched.body.counts.recipients, dispatched.body.counts.queued], [1, 1]);
  });

  test('campaigns › re-importing an export into its own workspace creates nothing and sends nothing', async () => {
    const { ws, contact, base } = await campaignWorkspace();
    const audience = { contact_ids: [contact.id] };
    const scheduledAt = new Date(server.clock.now().getTime() + 10 * MINUTE).toISOString();
    await createCampaign(ws, { ...base, name: 'Later', audience, scheduled_at: scheduledAt });
    await createCampaign(ws, { ...base, name: 'Now', audience });
    const dropped = await createCampaign(ws, { ...base, name: 'Dropped', audience, scheduled_at: scheduledAt });
    assert.equal((await ws.action('cancel-campaign', { campaign_id: dropped.id })).status, 200);
    await server.app.services.scheduler.runDue(ws.workspaceId);
    const file = writeFile(await exportCli(ws));
    const before = await sendingState(ws);
    assert.equal(before.messages.length, 1, 'only "Now" was sent');

    assert.deepEqual((await importFile(ws, file)).campaigns, { created: 0, updated: 1, skipped: 2 });
    assert.deepEqual(await sendingState(ws), before, 'no campaign, job or message written');

    // Once "Later" has gone out, the same document's scheduled entry is history here too.
    server.clock.advance(10 * MINUTE);
    await server.app.services.scheduler.runDue(ws.workspaceId);
    const sent = await sendingState(ws);
    assert.equal(sent.messages.length, 2);
    assert.deepEqual((await importFile(ws, file)).campaigns, { created: 0, updated: 0, skipped: 3 });
    assert.deepEqual(await sendingState(ws), sent);
  });

  test('campaigns › an edited entry replaces a still-scheduled campaign and moves its dispatch', async () => {
    const { ws, contact, base } = await campaignWorkspace();
    const first = new Date(server.clock.now().getTime() + 10 * MINUTE);
    const campaign = await createCampaign(ws, {
      ...base,
      name: 'Later',
      audience: { contact_ids: [contact.id] },
      scheduled_at: first.toISOString(),
    });
    const exported = await exportCli(ws);
    const moved = new Date(first.getTime() + 10 * MINUTE);
    const edited = {
      ...exported.campaigns![0]!,
      variables: ['{{contact.name}}', 'ORD-2'],
      scheduled_at: formatted(moved),
    };
    const summary = await importFile(ws, writeFile({ ...exported, campaigns: [edited] }));
    assert.deepEqual(summary.campaigns, { created: 0, updated: 1, skipped: 0 });

    const [replaced, ...others] = await listCampaigns(ws);
    assert.deepEqual(others, []);
    assert.deepEqual(
      [replaced!.id, replaced!.variables, replaced!.scheduled_at],
      [campaign.id, ['{{contact.name}}', 'ORD-2'], formatted(moved)],
    );
    const { jobs } = await sendingState(ws);
    assert.deepEqual(
      jobs.map((job) => [job.kind, job.due_at]),
      [['campaign_dispatch', moved.toISOString()]],
    );
    server.clock.advance(10 * MINUTE);
    await server.app.services.scheduler.runDue(ws.workspaceId);
    assert.equal((await listCampaigns(ws))[0]!.status, 'scheduled', 'not at the old time');
    server.clock.advance(10 * MINUTE);
    await server.app.services.scheduler.runDue(ws.workspaceId);
    assert.equal((await listCampaigns(ws))[0]!.status, 'sending');
  });

  test('campaigns › sent, cancelled or failed entries are history: skipped, never checked against the workspace', async () => {
    const ws = await createWorkspace(server);
    const history = {
      language: 'en',
      variables: [],
      audience: { contact_phones: ['+14155550100'] },
      scheduled_at: null,
    };
    const summary = await importFile(
      ws,
      writeFile({
        version: 1,
        campaigns: [
          { name: 'Old', template_name: 'long_gone', ...history, status: 'sent' },
          { name: 'Stopped', template_name: null, ...history, status: 'cancelled' },
          { name: 'Broken', template_name: null, ...history, status: 'failed' },
        ],
      }),
    );
    assert.deepEqual(summary.campaigns, { created: 0, updated: 0, skipped: 3 });
    assert.deepEqual(await sendingState(ws), { campaigns: [], jobs: [], messages: [] });
  });

  test("validateWorkspaceData › a campaign's audience, status and time are reported by field", () => {
    const campaign = { name: 'Launch', template_name: 'welcome', status: 'scheduled' };
    assert.deepEqual(
      problemFields({
        version: 1,
        campaigns: [
          { ...campaign, audience: { contact_phones: [] }, scheduled_at: 'soon' },
          { ...campaign, audience: { tag: 'vip', search: {} }, status: 'done' },
          { ...campaign, audience: { search: { name: 'Ada' } }, language: 'English' },
        ],
      }),
      [
        '/campaigns/0/audience/contact_phones: must have at least 1 item',
        '/campaigns/0/scheduled_at: must be an ISO 8601 time with an offset, e.g. 2030-01-15T09:00:00+00:00 (or null)',
        '/campaigns/1/audience: must be an object with exactly one of tag, contact_phones, search',
        '/campaigns/1/status: must be one of scheduled, sending, sent, cancelled, failed',
        '/campaigns/2/language: must match the pattern ^[a-zA-Z]{2,3}([_-][a-zA-Z0-9]{2,8})*$ (or null)',
        '/campaigns/2/audience/search/name: is not a known property',
      ],
    );
  });

  test('import › a bad field exits 1 naming its path on one stderr line, prints nothing, writes nothing', async () => {
    // Each problem sits after valid tags and templates, so a partial import would show in the export.
    await Promise.all(
      BAD_FIELDS.filter(([, , , viaCli]) => viaCli).map(async ([label, breakIt, expected]) => {
        const ws = await createWorkspace(server);
        const document = sampleDocument();
        breakIt(document);
        const result = await runCli(server, 'import', '--workspace', ws.workspaceId, writeFile(document));
        assert.equal(result.code, 1, `${label}: exit code (stderr: ${result.stderr})`);
        assert.equal(result.stdout, '', `${label}: nothing on stdout`);
        const lines = stderrLines(result);
        assert.equal(lines.length, 1, `${label}: one line on stderr, got ${result.stderr}`);
        assert.ok(lines[0]!.startsWith(`parley: ${expected}`), `${label}: ${lines[0]}`);
        assert.ok(lines[0]!.endsWith('(validation_failed)'), `${label}: ${lines[0]}`);
        assert.deepEqual(await exportInProcess(ws), EMPTY, `${label}: nothing written`);
      }),
    );
  });

  test('import › every rule is checked before the first write (service, in process)', async () => {
    for (const [label, breakIt, expected] of BAD_FIELDS) {
      const ws = await createWorkspace(server);
      const document = sampleDocument();
      breakIt(document);
      await assert.rejects(
        server.app.services.portability.import({ workspaceId: ws.workspaceId }, document),
        (error: unknown) =>
          error instanceof AppError &&
          error.code === 'validation_failed' &&
          error.fieldErrors.some(
            (e) =>
              `${e.field}: ${e.message}`.startsWith(expected) &&
              (RULE_CODES[label] === undefined || e.code === RULE_CODES[label]),
          ),
        label,
      );
      assert.deepEqual(await exportInProcess(ws), EMPTY, `${label}: nothing written`);
    }
  });

  test('import › a file that is not JSON or cannot be read exits 1 with one line', async () => {
    const ws = await createWorkspace(server);
    const cases: [string, RegExp][] = [
      [writeFile('{"version": 1,'), /^parley: \S+workspace-\d+\.json: is not valid JSON \(.+\) \(validation_failed\)$/],
      [
        path.join(tmp, 'missing.json'),
        /^parley: \S+missing\.json: cannot be read \(ENOENT: .+\) \(validation_failed\)$/,
      ],
    ];
    const results = await Promise.all(
      cases.map(([file]) => runCli(server, 'import', '--workspace', ws.workspaceId, file)),
    );
    results.forEach((result, i) => {
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, '');
      assert.equal(stderrLines(result).length, 1);
      assert.match(stderrLines(result)[0]!, cases[i]![1]);
    });
    assert.deepEqual(await exportInProcess(ws), EMPTY);
  });

  test('import › an unknown workspace exits 1 and a missing file argument exits 2', async () => {
    const file = writeFile(sampleDocument());
    const unknown = await runCli(server, 'import', '--workspace', '01900000-0000-7000-8000-000000000000', file);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^parley: workspace not found \(not_found\)\n$/);
    const ws = await createWorkspace(server);
    const noFile = await runCli(server, 'import', '--workspace', ws.workspaceId);
    assert.equal(noFile.code, 2);
    assert.match(
      noFile.stderr,
      /^parley: usage: parley import --workspace ID FILE\.json \| FILE\.csv \[--columns [^\n]*\n$/,
    );
  });

  test('validateWorkspaceData › reports every schema problem with its path and a readable message', () => {
    const document = {
      version: 1,
      surprise: true,
      tags: [{}],
      templates: [
        {
          name: 'Not Valid',
          category: 'PROMO',
          translations: [{ language: 'en', status: 'APPROVED', body: '', header_type: 'GIF', footer: 7 }],
        },
      ],
      contacts: [{ phone: 14155550100, tags: 'vip' }],
    };
    assert.deepEqual(problemFields(document), [
      '/surprise: is not a known property',
      '/tags/0/name: is required',
      '/templates/0/name: must match the pattern ^[a-z0-9_]+$',
      '/templates/0/category: must be one of MARKETING, UTILITY, AUTHENTICATION',
      '/templates/0/translations/0/body: must not be empty',
      '/templates/0/translations/0/header_type: must be one of TEXT, IMAGE, VIDEO, DOCUMENT (or null)',
      '/templates/0/translations/0/footer: must be a string (or null)',
      '/contacts/0/phone: must be a string',
      '/contacts/0/tags: must be an array',
    ]);
    assert.deepEqual(problemFields(sampleDocument()), []);
    assert.deepEqual(problemFields([1, 2]), ['/: must be an object']);
    assert.deepEqual(problemFields({ version: 2 }), ['/version: must be 1']);
    assert.deepEqual(problemFields({ tags: [] }), ['/version: is required']);
  });

  test('validateWorkspaceData › reports at most 20 problems and says how many more there are', () => {
    const contacts = Array.from({ length: 25 }, (_, i) => ({ phone: `+1 555 01${String(i).padStart(2, '0')}` }));
    const problems = problemFields({ version: 1, contacts });
    assert.equal(problems.length, 21);
    assert.equal(problems[0], '/contacts/0/phone: must be a valid international phone number, e.g. +14155550100');
    assert.equal(problems[20], '/: and 5 more problems');
    assert.throws(
      () => validateWorkspaceData({ version: 1, contacts }),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.deepEqual(error.fieldErrors.at(-1), {
          field: '/',
          message: 'and 5 more problems',
          code: 'imports.more_problems',
          params: { count: 5 },
        });
        return true;
      },
    );
  });

  test('docs/workspace-data.schema.json › is the schema generated from WorkspaceDataSchema', async () => {
    for (const generated of GENERATED_SCHEMAS) {
      const checkedIn = fs.readFileSync(path.join(REPO_ROOT, generated.file), 'utf8');
      assert.ok(
        checkedIn === (await renderSchema(generated)),
        `${generated.file} is stale: run \`node --import tsx scripts/generate-schemas.ts\` and commit the result`,
      );
    }
    const published = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'docs/workspace-data.schema.json'), 'utf8')) as {
      $schema: string;
    };
    assert.equal(published.$schema, 'https://json-schema.org/draft/2020-12/schema');
  });

  test('docs/examples/workspace.json › validates, imports cleanly and get-template shows it over HTTPS', async () => {
    const example = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8')) as WorkspaceData;
    assert.deepEqual(problemFields(example), []);
    const ws = await createWorkspace(server);
    const summary = await importFile(ws, EXAMPLE_FILE);
    assert.deepEqual(summary, {
      tags: 4,
      templates: 3,
      flows: 1,
      sequences: 1,
      contacts: { created: 5, updated: 0 },
      campaigns: { created: 1, updated: 0, skipped: 0 },
      rate_cards: { created: 1, skipped: 0 },
      knowledge: { created: 2, updated: 0 },
    });

    const listed = await ws.action<Template[]>('list-templates', {});
    assert.deepEqual(
      listed.body.map((t) => t.name),
      ['back_in_stock', 'order_shipped', 'spring_sale'],
    );
    const get = async (name: string) => {
      const templateId = listed.body.find((t) => t.name === name)!.id;
      const res = await ws.action<Template>('get-template', { template_id: templateId });
      assert.equal(res.status, 200);
      const { id, created_at, ...shown } = res.body;
      assert.match(`${id} ${created_at}`, /^[0-9a-f-]{36} \d{4}-.+\+00:00$/);
      return shown;
    };
    assert.deepEqual(await get('order_shipped'), {
      name: 'order_shipped',
      category: 'UTILITY',
      category_notice: null,
      message_send_ttl_seconds: null,
      status: 'APPROVED',
      language: 'en_US',
      languages: ['en_US'],
      body: 'Hi {{1}}, your order {{2}} has shipped and should arrive by {{3}}.',
      header_type: 'TEXT',
      header_content: 'Your order is on its way',
      footer: 'Northwind Coffee Roasters',
      buttons: [
        { type: 'URL', text: 'Track order', url: 'https://shop.example.com/orders/{{1}}' },
        { type: 'QUICK_REPLY', text: 'Talk to a person' },
      ],
      placeholders: ['1', '2', '3'],
      parameter_format: 'POSITIONAL',
      header_placeholders: [],
      button_placeholders: [{ index: 0, placeholder: '1' }],
      variables: [
        { id: '1', label: '{{1}}' },
        { id: '2', label: '{{2}}' },
        { id: '3', label: '{{3}}' },
        { id: 'button_0_1', label: 'Button "Track order" {{1}}' },
      ],
      missing_capabilities: [],
      meta_template_id: null,
      rejection_reason: null,
      quality_score: null,
      translations: [{ language: 'en_US', status: 'APPROVED' }],
      add_security_recommendation: null,
      code_expiration_minutes: null,
      library_template_name: null,
    });
    const sale = await get('spring_sale');
    assert.deepEqual(
      [sale.status, sale.language, sale.languages, sale.translations, sale.placeholders],
      [
        'APPROVED',
        'en_US',
        ['en_US', 'fr'],
        [
          { language: 'en_US', status: 'APPROVED' },
          { language: 'fr', status: 'PENDING' },
        ],
        ['1', '2'],
      ],
    );
    const stock = await get('back_in_stock');
    assert.deepEqual(
      [stock.header_type, stock.header_content, stock.footer, stock.buttons.map((b) => b.type)],
      ['IMAGE', 'https://shop.example.com/images/ethiopia-guji.jpg', undefined, ['QUICK_REPLY', 'PHONE_NUMBER']],
    );

    const marie = await ws.action<Contact>('get-contact', { phone: '+33612345678' });
    assert.deepEqual(
      [marie.body.name, marie.body.tags, marie.body.custom_attributes],
      ['Marie Curie', ['fr', 'newsletter'], { preferred_language: 'fr' }],
    );
    const alan = await ws.action<Contact>('get-contact', { phone: '+61293744000' });
    assert.equal(alan.body.opted_out, true);
    const all = await ws.action<Contact[]>('search-contacts', {});
    assert.equal(all.body.length, 5);
    const [campaign, ...others] = await listCampaigns(ws);
    assert.deepEqual(others, []);
    assert.deepEqual(
      [campaign!.name, campaign!.status, campaign!.template_name, campaign!.audience, campaign!.scheduled_at],
      ['Spring sale 2030', 'scheduled', 'spring_sale', { tag: 'newsletter' }, '2030-03-01T09:00:00.000+00:00'],
    );
  });
});
