/**
 * One valid call of every MCP tool, in an order that builds what later calls need (a contact, a
 * template, a conversation, a sequence, a flow, a campaign), each with what its result must show.
 * mcp.test.ts runs the table over both transports and fails when a tool has no example here.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';

type Json = Record<string, unknown>;
type Row = Record<string, unknown> & { id: string };

/** What the examples create and later ones refer to. */
export interface ExampleState {
  templateId: string;
  phone: string;
  contactId: string;
  inboundId: string;
  messageId: string;
  sequenceId: string;
  enrolmentId: string;
  flowId: string;
  runId: string;
  campaignId: string;
  channelId: string;
  /** A template created through the tools (submitted to the simulator), then edited and deleted. */
  submittedTemplateId: string;
  /** A quick reply created, changed, listed and deleted through the tools. */
  quickReplyId: string;
  /** A knowledge source (a Q&A pair) created, found, changed and deleted through the tools. */
  knowledgeSourceId: string;
  /** A conversation label created, applied, renamed and deleted through the tools. */
  labelId: string;
  /** The token's user (get_me), made a team member and given a conversation. */
  userId: string;
  /** A team created, renamed, given members, assigned a conversation and deleted. */
  teamId: string;
}

export interface ToolExample {
  tool: string;
  input(state: ExampleState): Json;
  /** Checks the structuredContent; may record ids in the state for later examples. */
  expect(result: Json, state: ExampleState): void;
  /** The problem code a tool must answer when the example's state cannot succeed (its success is tested elsewhere). */
  refusal?: string;
}

const rows = (result: Json) => result.data as Row[];
const ids = (result: Json) => rows(result).map((row) => row.id);
/** The sum of a per-state count object. */
const total = (counts: unknown) => Object.values(counts as Record<string, number>).reduce((a, b) => a + b, 0);
const TOMORROW = () => new Date(Date.now() + 24 * 3600_000).toISOString();

/** The calls, in order; `state.templateId` and `state.phone` are set before the first. */
export const TOOL_EXAMPLES: ToolExample[] = [
  {
    tool: 'get_me',
    input: () => ({}),
    expect: (result, s) => {
      assert.equal((result.token as Json).scope, 'full');
      s.userId = (result.user as Json).id as string;
    },
  },
  {
    tool: 'list_workspace_events',
    input: () => ({ limit: 5 }),
    // A fresh simulator workspace: Meta has reported nothing.
    expect: (result) => assert.deepEqual(rows(result), []),
  },
  {
    tool: 'create_contact',
    input: (s) => ({ phone: s.phone, name: 'Ada', tags: 'lead', metadata: { plan: 'pro' } }),
    expect: (result, s) => {
      assert.equal(result.phone, s.phone);
      assert.deepEqual(result.tags, ['lead']);
      s.contactId = result.id as string;
    },
  },
  {
    tool: 'update_contact',
    input: (s) => ({ contact_id: s.contactId, email: 'ada@example.com' }),
    expect: (result) => assert.equal(result.email, 'ada@example.com'),
  },
  {
    tool: 'update_opt_out_settings',
    input: () => ({ start_keywords: ['START', 'YES'], confirm: false }),
    expect: (result) => assert.deepEqual([result.start_keywords, result.confirm], [['START', 'YES'], false]),
  },
  {
    tool: 'get_opt_out_settings',
    input: () => ({}),
    expect: (result) => {
      assert.ok((result.stop_keywords as string[]).includes('STOP'));
      assert.deepEqual(result.start_keywords, ['START', 'YES']);
    },
  },
  {
    // Saved switched off: the away reply would answer the later examples' inbound messages.
    tool: 'update_business_hours',
    input: () => ({
      enabled: false,
      time_zone: 'Europe/Berlin',
      weekly: {
        ...Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [
            day,
            [{ opens: '09:00', closes: '18:00' }],
          ]),
        ),
        saturday: [{ opens: '10:00', closes: '14:00' }],
        sunday: [],
      },
      holidays: ['2026-12-25'],
      away_message: 'We are closed; we answer from 9.',
    }),
    expect: (result) => assert.deepEqual([result.time_zone, result.holidays], ['Europe/Berlin', ['2026-12-25']]),
  },
  {
    tool: 'get_business_hours',
    input: () => ({}),
    expect: (result) =>
      assert.deepEqual((result.weekly as Record<string, unknown>).saturday, [{ opens: '10:00', closes: '14:00' }]),
  },
  {
    tool: 'update_satisfaction_survey_settings',
    input: () => ({ enabled: false }),
    expect: (result) => assert.deepEqual(result, { enabled: false }),
  },
  {
    tool: 'get_agent_report',
    input: () => ({}),
    expect: (result) => {
      assert.ok(Array.isArray(result.agents));
      assert.equal(typeof (result.everyone as Json).conversations_handled, 'number');
    },
  },
  {
    tool: 'get_ai_report',
    input: () => ({}),
    expect: (result) => {
      assert.equal((result.conversations as Json).handled, 0, 'the assistant is off: it handled nothing');
      assert.ok(Array.isArray(result.days) && result.days.length === 30);
    },
  },
  {
    tool: 'get_team_report',
    input: () => ({}),
    expect: (result) => assert.ok(Array.isArray(result.teams)),
  },
  {
    tool: 'update_marketing_messages_settings',
    input: () => ({ enabled: false }),
    expect: (result) => assert.equal(result.enabled, false),
  },
  {
    tool: 'get_marketing_messages_settings',
    input: () => ({}),
    expect: (result) => assert.equal(result.enabled, false),
  },
  {
    tool: 'get_ai_settings',
    input: () => ({}),
    expect: (result) => assert.deepEqual([result.enabled, result.api_key_set], [false, false]),
  },
  {
    // Nothing saved yet: the round trip stops before any call, naming what is missing.
    tool: 'test_ai_settings',
    input: () => ({}),
    expect: (result) => assert.deepEqual([result.ok, (result.problem as Json).reason], [false, 'not_configured']),
  },
  {
    // Left off: nothing is called, and the stand-in-free test server reaches no model.
    tool: 'save_ai_settings',
    input: () => ({ base_url: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', monthly_token_budget: 100000 }),
    expect: (result) => assert.deepEqual([result.enabled, result.model], [false, 'gpt-4.1-mini']),
  },
  {
    tool: 'get_ai_usage',
    input: () => ({}),
    expect: (result) => assert.deepEqual([result.tokens_used, result.tokens_left], [0, 100000]),
  },
  {
    tool: 'get_satisfaction_survey_settings',
    input: () => ({}),
    expect: (result) => assert.equal(typeof result.enabled, 'boolean'),
  },
  {
    tool: 'update_assistant_settings',
    input: () => ({
      enabled: false,
      channel_ids: [],
      team_ids: [],
      hours: 'outside_hours',
      name: 'Flora',
      instructions: 'Warm and brief.',
      reply_limit: 3,
      confidence_floor: 0.7,
      stop_words: ['manager'],
      handover_message: 'A florist will answer you here shortly.',
    }),
    expect: (result) =>
      assert.deepEqual([result.name, result.hours, result.reply_limit], ['Flora', 'outside_hours', 3]),
  },
  {
    tool: 'get_assistant_settings',
    input: () => ({}),
    expect: (result) => assert.deepEqual([result.enabled, result.stop_words], [false, ['manager']]),
  },
  {
    tool: 'add_channel',
    // A simulated number: nothing leaves Parley, and sends may name it as from_phone_number_id.
    input: () => ({ provider: 'simulator', phone_number_id: '4242' }),
    expect: (result, s) => {
      assert.deepEqual([result.provider, result.phone_number_id, result.is_default], ['simulator', '4242', true]);
      s.channelId = result.id as string;
    },
  },
  {
    tool: 'list_channels',
    input: () => ({}),
    expect: (result, s) =>
      assert.deepEqual(
        (result.channels as Row[]).map((c) => c.id),
        [s.channelId],
      ),
  },
  {
    tool: 'set_up_flows_encryption',
    input: (s) => ({ channel_id: s.channelId }),
    expect: (result, s) => {
      assert.deepEqual([result.channel_id, result.key_status], [s.channelId, 'valid']);
      assert.match(String(result.public_key), /^-----BEGIN PUBLIC KEY-----/);
    },
  },
  {
    tool: 'get_flows_endpoint',
    input: (s) => ({ channel_id: s.channelId }),
    expect: (result, s) => {
      assert.equal(result.key_status, 'valid');
      assert.match(String(result.endpoint_url), new RegExp(`/webhooks/whatsapp/flows/${s.channelId}$`));
    },
  },
  {
    tool: 'set_flows_screen_answers',
    input: (s) => ({
      channel_id: s.channelId,
      answered_by: 'parley',
      screen_answers: [{ screen: null, next_screen: 'WELCOME', data: { greeting: 'Hi {{contact.first_name}}' } }],
    }),
    expect: (result) => {
      assert.equal(result.answered_by, 'parley');
      assert.deepEqual(result.screen_answers, [
        { screen: null, next_screen: 'WELCOME', data: { greeting: 'Hi {{contact.first_name}}' } },
      ]);
    },
  },
  {
    tool: 'remove_channel',
    input: (s) => ({ channel_id: s.channelId }),
    expect: (result, s) => assert.equal(result.id, s.channelId),
  },
  {
    tool: 'get_contact',
    input: () => ({ email: 'ada@example.com' }),
    expect: (result, s) => assert.equal(result.id, s.contactId),
  },
  {
    tool: 'search_contacts',
    input: () => ({ query: 'ada' }),
    expect: (result, s) => {
      assert.deepEqual(ids(result), [s.contactId]);
      assert.equal(result.next_cursor, null);
    },
  },
  {
    tool: 'add_tag',
    input: (s) => ({ contact_id: s.contactId, tag: 'vip' }),
    expect: (result) => assert.deepEqual(result.tags, ['lead', 'vip']),
  },
  {
    tool: 'list_tags',
    input: () => ({}),
    expect: (result) =>
      assert.deepEqual(
        rows(result).map((tag) => tag.name),
        ['lead', 'vip'],
      ),
  },
  {
    tool: 'remove_tag',
    input: (s) => ({ phone: s.phone, tag: 'lead' }),
    expect: (result) => assert.deepEqual(result.tags, ['vip']),
  },
  {
    tool: 'rename_tag',
    input: () => ({ tag: 'lead', name: 'prospect' }),
    expect: (result) => assert.equal(result.name, 'prospect'),
  },
  {
    tool: 'delete_tag',
    input: () => ({ tag: 'prospect' }),
    expect: (result) => assert.deepEqual([result.name, result.deleted], ['prospect', true]),
  },
  {
    tool: 'list_templates',
    input: () => ({ status: 'APPROVED' }),
    expect: (result, s) => assert.deepEqual(ids(result), [s.templateId]),
  },
  {
    tool: 'get_template',
    input: (s) => ({ template_id: s.templateId }),
    expect: (result) => assert.deepEqual(result.placeholders, ['1', '2']),
  },
  {
    tool: 'create_template',
    input: () => ({
      name: `mcp_welcome_${randomInt(1e9)}`,
      category: 'UTILITY',
      translations: [{ language: 'en', body: 'Welcome {{1}}', examples: { '1': 'Ada' } }],
    }),
    expect: (result, s) => {
      assert.equal(result.status, 'PENDING');
      s.submittedTemplateId = result.id as string;
    },
  },
  {
    tool: 'update_template',
    input: (s) => ({
      template_id: s.submittedTemplateId,
      category: 'UTILITY',
      translations: [{ language: 'en', body: 'Welcome back {{1}}', examples: { '1': 'Ada' } }],
    }),
    expect: (result) => assert.equal(result.body, 'Welcome back {{1}}'),
  },
  {
    tool: 'delete_template',
    input: (s) => ({ template_id: s.submittedTemplateId }),
    expect: (result) => assert.deepEqual(result.deleted, ['en']),
  },
  {
    tool: 'create_quick_reply',
    input: () => ({ shortcut: '/hours', body: 'We are open 9–17.' }),
    expect: (result, s) => {
      assert.equal(result.shortcut, 'hours');
      s.quickReplyId = result.id as string;
    },
  },
  {
    tool: 'update_quick_reply',
    input: (s) => ({ quick_reply_id: s.quickReplyId, body: 'We are open 9–18.' }),
    expect: (result) => assert.equal(result.body, 'We are open 9–18.'),
  },
  {
    tool: 'list_quick_replies',
    input: () => ({ query: 'open' }),
    expect: (result, s) => assert.deepEqual(ids(result), [s.quickReplyId]),
  },
  {
    tool: 'delete_quick_reply',
    input: (s) => ({ quick_reply_id: s.quickReplyId }),
    expect: (result, s) => assert.equal(result.id, s.quickReplyId),
  },
  {
    tool: 'create_knowledge_qa',
    input: () => ({ question: 'Do you deliver on Sundays?', answer: 'Yes, from 9 to 13.' }),
    expect: (result, s) => {
      assert.deepEqual([result.kind, result.chunk_count], ['qa', 1]);
      s.knowledgeSourceId = result.id as string;
    },
  },
  {
    tool: 'create_knowledge_document',
    input: () => ({ title: 'Care', content: '# Roses\n\nTrim the stems every two days.' }),
    expect: (result) => assert.deepEqual([result.kind, result.format, result.chunk_count], ['document', 'markdown', 1]),
  },
  {
    tool: 'update_knowledge_source',
    input: (s) => ({ source_id: s.knowledgeSourceId, answer: 'Yes, from 9 to 14.' }),
    expect: (result) => assert.equal(result.excerpt, 'Yes, from 9 to 14.'),
  },
  {
    tool: 'search_knowledge',
    input: () => ({ query: 'sundays' }),
    expect: (result, s) => {
      const [chunk] = result.chunks as Json[];
      assert.deepEqual([chunk?.source_id, chunk?.text], [s.knowledgeSourceId, 'Yes, from 9 to 14.']);
    },
  },
  {
    tool: 'get_knowledge_source',
    input: (s) => ({ source_id: s.knowledgeSourceId }),
    expect: (result) => assert.equal((result.chunks as Json[]).length, 1),
  },
  {
    tool: 'update_knowledge_settings',
    input: () => ({ quick_replies: true }),
    expect: (result) => assert.equal(result.quick_replies, true),
  },
  {
    tool: 'get_knowledge_settings',
    input: () => ({}),
    expect: (result) => assert.deepEqual([result.templates, result.quick_replies], [false, true]),
  },
  {
    tool: 'list_knowledge_sources',
    input: () => ({ kind: 'qa' }),
    expect: (result, s) => assert.deepEqual(ids(result), [s.knowledgeSourceId]),
  },
  {
    tool: 'delete_knowledge_source',
    input: (s) => ({ source_id: s.knowledgeSourceId }),
    expect: (result, s) => assert.equal(result.id, s.knowledgeSourceId),
  },
  {
    tool: 'simulate_inbound_message',
    input: (s) => ({ phone: s.phone, text: 'Where is my order?' }),
    expect: (result, s) => {
      assert.equal(result.direction, 'inbound');
      s.inboundId = result.id as string;
    },
  },
  {
    tool: 'create_conversation_label',
    input: () => ({ name: 'Order question', colour: '#1d4ed8' }),
    expect: (result, s) => {
      assert.equal(result.colour, '#1d4ed8');
      s.labelId = result.id as string;
    },
  },
  {
    tool: 'update_conversation_label',
    input: (s) => ({ label_id: s.labelId, name: 'Order questions' }),
    expect: (result) => assert.equal(result.name, 'Order questions'),
  },
  {
    tool: 'list_conversation_labels',
    input: () => ({}),
    expect: (result, s) => assert.deepEqual(ids(result), [s.labelId]),
  },
  {
    tool: 'list_conversations',
    input: () => ({ status: 'open' }),
    expect: (result, s) =>
      assert.deepEqual(
        rows(result).map((row) => row.contact_id),
        [s.contactId],
      ),
  },
  {
    tool: 'set_conversation_labels',
    input: (s) => ({ contact_id: s.contactId, labels: ['order questions'] }),
    expect: (result) =>
      assert.deepEqual(
        (result.labels as Row[]).map((label) => label.name),
        ['Order questions'],
      ),
  },
  {
    tool: 'set_conversation_priority',
    input: (s) => ({ contact_id: s.contactId, priority: 'high' }),
    expect: (result) => assert.equal(result.priority, 'high'),
  },
  {
    tool: 'add_conversation_note',
    input: (s) => ({ contact_id: s.contactId, body: 'Asked about order 1234' }),
    expect: (result) => assert.equal(typeof result.id, 'string'),
  },
  {
    tool: 'snooze_conversation',
    input: (s) => ({ contact_id: s.contactId, until: null }),
    expect: (result) => assert.equal(result.status, 'snoozed'),
  },
  {
    tool: 'unsnooze_conversation',
    input: (s) => ({ contact_id: s.contactId }),
    expect: (result) => assert.equal(result.status, 'open'),
  },
  {
    tool: 'close_conversation',
    input: (s) => ({ contact_id: s.contactId }),
    expect: (result) => assert.equal(result.status, 'closed'),
  },
  {
    tool: 'reopen_conversation',
    input: (s) => ({ contact_id: s.contactId }),
    expect: (result) => assert.equal(result.status, 'open'),
  },
  {
    tool: 'bulk_conversations',
    input: () => ({ action: 'priority', filter: { label: 'Order questions' }, priority: 'urgent' }),
    expect: (result) => assert.deepEqual(result, { action: 'priority', matched: 1, changed: 1 }),
  },
  {
    tool: 'get_conversation',
    input: (s) => ({ contact_id: s.contactId }),
    expect: (result) => assert.equal(result.priority, 'urgent'),
  },
  {
    tool: 'delete_conversation_label',
    input: (s) => ({ label_id: s.labelId }),
    expect: (result, s) => assert.deepEqual(result, { id: s.labelId, deleted: true }),
  },
  {
    tool: 'send_text_message',
    input: (s) => ({ contact_id: s.contactId, message: 'It ships today.' }),
    expect: (result, s) => {
      assert.equal(result.direction, 'outbound');
      s.messageId = result.id as string;
    },
  },
  {
    // A direct token's sends are never held: an id of no held send is not found (mcp.test.ts holds one).
    tool: 'get_held_send',
    input: (s) => ({ held_send_id: s.messageId }),
    expect: () => undefined,
    refusal: 'not_found',
  },
  {
    tool: 'get_message',
    input: (s) => ({ message_id: s.messageId }),
    expect: (result) => assert.deepEqual(result.content, { body: 'It ships today.', preview_url: false }),
  },
  {
    tool: 'send_template_message',
    input: (s) => ({ phone: s.phone, template_id: s.templateId, variables: ['Ada', 'ORD-1'] }),
    expect: (result) => assert.equal(result.type, 'template'),
  },
  {
    tool: 'list_assistant_turns',
    input: (s) => ({ contact_id: s.contactId }),
    expect: (result) => assert.deepEqual(result.turns, [], 'the assistant is off: it took no turn'),
  },
  {
    tool: 'list_messages',
    input: (s) => ({ contact_id: s.contactId, limit: 2 }),
    expect: (result, s) => {
      const [newest, older] = rows(result);
      assert.equal(rows(result).length, 2);
      assert.equal(newest!.type, 'template', 'newest first');
      assert.equal(older!.id, s.messageId);
    },
  },
  {
    tool: 'mark_as_read',
    input: (s) => ({ message_id: s.inboundId, typing_indicator: true }),
    expect: (result, s) => assert.equal(result.message_id, s.inboundId),
  },
  {
    tool: 'upload_media',
    input: () => ({ data: Buffer.from('Order ORD-1: 2 boxes').toString('base64'), mime_type: 'text/plain' }),
    expect: (result) => assert.equal(result.type, 'document'),
  },
  {
    tool: 'send_media_message',
    input: (s) => ({ phone: s.phone, type: 'image', media_url: 'https://cdn.example.com/box.jpg', caption: 'Packed' }),
    expect: (result) =>
      assert.deepEqual(result.content, { link: 'https://cdn.example.com/box.jpg', caption: 'Packed' }),
  },
  {
    tool: 'send_interactive_message',
    input: (s) => ({ phone: s.phone, type: 'button', body: 'Track it?', buttons: [{ id: 'track', title: 'Track' }] }),
    expect: (result) => assert.equal(result.type, 'interactive'),
  },
  {
    tool: 'send_location',
    input: (s) => ({ phone: s.phone, latitude: 52.52, longitude: 13.405, name: 'Depot' }),
    expect: (result) => assert.deepEqual(result.content, { latitude: 52.52, longitude: 13.405, name: 'Depot' }),
  },
  {
    tool: 'send_contacts',
    input: (s) => ({ phone: s.phone, contacts: [{ name: { formatted_name: 'Support', first_name: 'Support' } }] }),
    expect: (result) => assert.equal(result.type, 'contacts'),
  },
  {
    tool: 'send_reaction',
    input: (s) => ({ message_id: s.inboundId, emoji: '👍' }),
    expect: (result, s) => assert.equal(result.reply_to_message_id, s.inboundId),
  },
  {
    tool: 'new_message_received',
    input: () => ({ message_type: 'text' }),
    expect: (result, s) => assert.deepEqual(ids(result), [s.inboundId]),
  },
  {
    tool: 'save_sequence',
    input: () => ({
      name: `Nurture ${randomInt(1e9)}`,
      steps: [{ delay: 'P1D', action: { type: 'add_tag', tag: 'nurtured' } }],
    }),
    expect: (result, s) => {
      assert.equal((result.steps as unknown[]).length, 1);
      s.sequenceId = result.id as string;
    },
  },
  {
    tool: 'dropdown_sequences',
    input: () => ({}),
    expect: (result, s) => assert.deepEqual(ids(result), [s.sequenceId]),
  },
  {
    tool: 'trigger_sequence',
    input: (s) => ({ sequence_id: s.sequenceId, contact_id: s.contactId, context: { source: 'agent' } }),
    expect: (result, s) => {
      assert.equal(result.sequence_id, s.sequenceId);
      s.enrolmentId = result.id as string;
    },
  },
  {
    tool: 'get_sequence',
    input: (s) => ({ sequence_id: s.sequenceId }),
    expect: (result) => assert.equal(total(result.enrolments), 1),
  },
  {
    tool: 'new_sequence_triggered',
    input: (s) => ({ sequence_id: s.sequenceId }),
    expect: (result, s) =>
      assert.deepEqual(
        rows(result).map((row) => row.contact_id),
        [s.contactId],
      ),
  },
  {
    tool: 'stop_sequence_enrolment',
    input: (s) => ({ enrolment_id: s.enrolmentId }),
    expect: (result) => assert.equal(result.status, 'exited'),
  },
  {
    tool: 'save_flow',
    input: () => ({
      name: `Greeter ${randomInt(1e9)}`,
      definition: {
        start: 'hello',
        nodes: [
          { id: 'hello', type: 'send_text', text: 'Hi {{contact.name}}!', next: 'wait' },
          { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'end', on_timeout: 'end' },
          { id: 'end', type: 'end' },
        ],
      },
    }),
    expect: (result, s) => {
      assert.equal((result.nodes as unknown[]).length, 3);
      s.flowId = result.id as string;
    },
  },
  {
    tool: 'dropdown_flows',
    input: () => ({}),
    expect: (result, s) => assert.deepEqual(ids(result), [s.flowId]),
  },
  {
    tool: 'trigger_flow',
    input: (s) => ({ flow_id: s.flowId, phone: s.phone }),
    expect: (result, s) => {
      assert.equal(result.status, 'waiting', 'sent the greeting and waits for the reply');
      s.runId = result.id as string;
    },
  },
  {
    tool: 'get_flow',
    input: (s) => ({ flow_id: s.flowId }),
    expect: (result) => assert.equal(total(result.runs), 1),
  },
  {
    tool: 'new_flow_triggered',
    input: (s) => ({ flow_id: s.flowId }),
    expect: (result, s) =>
      assert.deepEqual(
        rows(result).map((row) => row.contact_id),
        [s.contactId],
      ),
  },
  {
    tool: 'stop_flow_run',
    input: (s) => ({ run_id: s.runId }),
    expect: (result) => assert.equal(result.status, 'cancelled'),
  },
  {
    // A draft is kept however incomplete: its problems come back with it, the live version stays.
    tool: 'save_flow_draft',
    input: (s) => ({
      flow_id: s.flowId,
      definition: {
        start: 'hello',
        nodes: [
          { id: 'hello', type: 'send_text', text: 'Hello again {{contact.name}}!', next: 'wait' },
          { id: 'wait', type: 'wait_for_reply', next: 'end' },
          { id: 'end', type: 'end' },
        ],
      },
    }),
    expect: (result) => {
      assert.equal(result.version, 1);
      assert.deepEqual((result.draft as { problems: unknown[] }).problems, []);
    },
  },
  {
    tool: 'publish_flow',
    input: (s) => ({ flow_id: s.flowId }),
    expect: (result) => assert.deepEqual([result.version, result.draft], [2, null]),
  },
  {
    // A try-run in the simulator: the try contact's, counted in no version's stats.
    tool: 'try_flow',
    input: (s) => ({ flow_id: s.flowId }),
    expect: (result) => assert.deepEqual([result.contact_phone, result.status], ['+14155550199', 'waiting']),
  },
  {
    tool: 'get_flow_stats',
    input: (s) => ({ flow_id: s.flowId, version: 1 }),
    expect: (result) => {
      assert.deepEqual(result.edges, [{ from: 'hello', exit: 'next', to: 'wait', runs: 1 }]);
      assert.deepEqual(
        (result.nodes as { node_id: string; runs: { cancelled: number } }[]).map((n) => [n.node_id, n.runs.cancelled]),
        [['wait', 1]],
      );
    },
  },
  {
    // The dry run: what create_campaign below would send and cost, creating nothing.
    tool: 'estimate_campaign',
    input: (s) => ({ template_id: s.templateId, audience: { tag: 'vip' }, variables: ['{{contact.name}}', 'ORD-2'] }),
    expect: (result) => assert.equal(result.messages, (result.markets as { messages: number }[])[0]?.messages),
  },
  {
    tool: 'create_campaign',
    input: (s) => ({
      name: `Launch ${randomInt(1e9)}`,
      template_id: s.templateId,
      audience: { tag: 'vip' },
      variables: ['{{contact.name}}', 'ORD-2'],
      scheduled_at: TOMORROW(),
    }),
    expect: (result, s) => {
      assert.equal(result.status, 'scheduled');
      s.campaignId = result.id as string;
    },
  },
  {
    tool: 'get_campaign',
    input: (s) => ({ campaign_id: s.campaignId }),
    expect: (result) => assert.equal(result.status, 'scheduled'),
  },
  {
    tool: 'list_campaigns',
    input: () => ({ status: 'scheduled' }),
    expect: (result, s) => assert.deepEqual(ids(result), [s.campaignId]),
  },
  {
    tool: 'cancel_campaign',
    input: (s) => ({ campaign_id: s.campaignId }),
    expect: (result) => assert.equal(result.status, 'cancelled'),
  },
  {
    // Only a sent campaign is resent (the stdio test resends one); a cancelled one is a conflict.
    tool: 'resend_campaign',
    input: (s) => ({ campaign_id: s.campaignId }),
    refusal: 'conflict',
    expect: (result) => assert.match(String(result.detail), /only a sent campaign/),
  },
  // Groups need a WhatsApp number (src/groups/groups.test.ts tests them with Meta's stand-in): on the
  // simulator there are none, and creating one is a conflict.
  { tool: 'list_groups', input: () => ({}), expect: (result) => assert.deepEqual(result.data, []) },
  {
    tool: 'create_group',
    input: () => ({ subject: 'Launch team' }),
    refusal: 'conflict',
    expect: (result) => assert.match(String(result.detail), /WhatsApp Cloud/),
  },
  ...(
    [
      ['get_group', {}],
      ['get_group_invite_link', {}],
      ['list_group_messages', {}],
      ['send_group_text', { message: 'Hello all' }],
      ['send_group_media', { type: 'image', media_url: 'https://example.com/a.png' }],
      ['send_group_template', { template_id: '00000000-0000-4000-8000-000000000000' }],
    ] as const
  ).map(([tool, body]) => ({
    tool,
    input: () => ({ group_id: '00000000-0000-4000-8000-000000000001', ...body }),
    refusal: 'not_found',
    expect: (result: Json) => assert.match(String(result.detail), /group/),
  })),
  // WhatsApp Flows live in a WhatsApp Business Account (src/whatsapp-flows/whatsapp-flows.test.ts tests them
  // with Meta's stand-in): on the simulator there are none, and making one is a conflict.
  { tool: 'list_whatsapp_flows', input: () => ({}), expect: (result) => assert.deepEqual(result.data, []) },
  ...(
    [
      ['create_whatsapp_flow', { name: 'Book a table', categories: ['APPOINTMENT_BOOKING'] }],
      ['sync_whatsapp_flows', {}],
    ] as const
  ).map(([tool, body]) => ({
    tool,
    input: () => body,
    refusal: 'conflict',
    expect: (result: Json) => assert.match(String(result.detail), /WhatsApp Cloud/),
  })),
  // Their answers come from Meta's webhook (src/whatsapp-flows/whatsapp-flow-answers.test.ts): none here.
  { tool: 'list_whatsapp_flow_answers', input: () => ({}), expect: (result) => assert.deepEqual(result.data, []) },
  { tool: 'new_whatsapp_flow_answer', input: () => ({}), expect: (result) => assert.deepEqual(result.data, []) },
  ...(
    [
      ['get_whatsapp_flow', {}],
      ['list_whatsapp_flow_alerts', {}],
      ['set_whatsapp_flow_attributes', { answer_attributes: {} }],
      ['update_whatsapp_flow_json', { flow_json: '{"version": "7.0", "screens": []}' }],
      ['publish_whatsapp_flow', {}],
      ['deprecate_whatsapp_flow', {}],
      ['delete_whatsapp_flow', {}],
      ['send_whatsapp_flow', { phone: '+14155550100', body: 'Book a table', cta: 'Book' }],
    ] as const
  ).map(([tool, body]) => ({
    tool,
    input: () => ({ whatsapp_flow_id: '00000000-0000-4000-8000-000000000002', ...body }),
    refusal: 'not_found',
    expect: (result: Json) => assert.match(String(result.detail), /WhatsApp Flow/),
  })),
  {
    tool: 'get_campaign_report',
    input: () => ({}),
    expect: (result) => assert.deepEqual(result.campaigns, []),
  },
  {
    tool: 'get_cost_ledger',
    input: () => ({ group_by: 'campaign' }),
    expect: (result) => assert.deepEqual(result.groups, []),
  },
  {
    // Nothing was sent: the only campaign was cancelled (a sent one is checked over stdio).
    tool: 'new_campaign_sent',
    input: () => ({}),
    expect: (result) => assert.deepEqual(result.data, []),
  },
  {
    tool: 'create_team',
    input: () => ({ name: 'Support' }),
    expect: (result, s) => {
      assert.deepEqual([result.name, result.members], ['Support', []]);
      s.teamId = result.id as string;
    },
  },
  {
    tool: 'update_team',
    input: (s) => ({ team_id: s.teamId, name: 'Care' }),
    expect: (result) => assert.equal(result.name, 'Care'),
  },
  {
    tool: 'set_team_members',
    input: (s) => ({ team_id: s.teamId, member_ids: [s.userId] }),
    expect: (result, s) =>
      assert.deepEqual(
        (result.members as Row[]).map((m) => m.id),
        [s.userId],
      ),
  },
  {
    tool: 'list_teams',
    input: () => ({}),
    expect: (result, s) => assert.deepEqual(ids(result), [s.teamId]),
  },
  {
    tool: 'update_routing_settings',
    input: (s) => ({ agent_limit: 5, rules: [{ kind: 'keyword', value: 'refund', team_id: s.teamId }] }),
    expect: (result) => assert.deepEqual([result.auto_assign, result.agent_limit], [false, 5]),
  },
  {
    tool: 'get_routing_settings',
    input: () => ({}),
    expect: (result, s) => assert.deepEqual(result.rules, [{ kind: 'keyword', value: 'refund', team_id: s.teamId }]),
  },
  {
    tool: 'assign_conversation',
    input: (s) => ({ contact_id: s.contactId, team_id: s.teamId, assignee_id: s.userId }),
    expect: (result, s) => assert.deepEqual([result.team_id, result.assignee_id], [s.teamId, s.userId]),
  },
  {
    tool: 'set_availability',
    input: () => ({ available: false }),
    expect: (result) => assert.equal(result.available, false),
  },
  {
    tool: 'get_availability',
    input: () => ({}),
    expect: (result, s) => assert.deepEqual(result, { user_id: s.userId, available: false }),
  },
  // The copilot asks the workspace's own AI model (src/copilot/copilot.test.ts tests it with an OpenAI
  // stand-in): this workspace has none, so the composer is told so and each action is refused.
  {
    tool: 'get_copilot_status',
    input: () => ({}),
    expect: (result) => assert.deepEqual(result, { available: false, reason: 'not_configured' }),
  },
  ...(
    [
      ['suggest_reply', {}],
      ['summarize_conversation', {}],
      ['rewrite_draft', { text: 'Your order ships today', style: 'friendlier' }],
    ] as const
  ).map(([tool, body]) => ({
    tool,
    input: (s: ExampleState) => ({ contact_id: s.contactId, ...body }),
    refusal: 'ai_model_not_configured',
    expect: (result: Json) => assert.match(String(result.detail), /Settings → AI model/),
  })),
  {
    tool: 'get_volume_report',
    input: () => ({}),
    expect: (result) => {
      const report = result as { days: unknown[]; hours_of_week: unknown[]; totals: Json };
      assert.equal(report.days.length, 30);
      assert.equal(report.hours_of_week.length, 168);
      const received = report.totals.messages_received as { current: number };
      assert.ok(received.current >= 1, 'the example conversation’s inbound message counts');
    },
  },
  {
    tool: 'delete_team',
    input: (s) => ({ team_id: s.teamId }),
    expect: (result) => assert.equal(result.deleted, true),
  },
];
