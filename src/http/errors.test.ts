import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ownerSession } from '../../test/dashboard-session.js';
import { createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer, type HttpResponse } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';

const server = await startServer();
const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance: string;
  request_id: string;
  errors?: { field: string; message: string; code?: string; params?: Record<string, string | number> }[];
}

/** Asserts the one error shape (RFC 9457 problem details with a stable code) and returns the body. */
function assertProblem(res: HttpResponse, status: number, code: string, instance?: string): Problem {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.body as Problem;
  assert.equal(body.code, code, res.text);
  assert.equal(body.status, status);
  assert.equal(body.type, `urn:parley:problem:${code}`);
  assert.ok(body.title.length > 0 && body.detail.length > 0, 'title and detail are human-readable text');
  assert.equal(body.request_id, res.headers['x-request-id'], 'request_id matches the X-Request-Id header');
  if (instance) assert.equal(body.instance, instance);
  return body;
}

const fieldsOf = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);
const codesOf = (problem: Problem) => (problem.errors ?? []).map((e) => e.code);

/** The POST actions this server documents, read from its own OpenAPI document. */
interface DocumentedAction {
  name: string;
  /** Whether its body has fields (a wrongly typed field can only be refused where there are fields). */
  hasFields: boolean;
}

type Operation = { requestBody?: { content: { 'application/json': { schema: { properties?: object } } } } };

async function documentedActions(): Promise<DocumentedAction[]> {
  const res = await server.http.send<{ paths: Record<string, { post?: Operation }> }>('GET', '/api/v1/openapi.json');
  return Object.entries(res.body.paths)
    .filter(([path, operations]) => path.startsWith('/v1/actions/') && operations.post)
    .map(([path, { post }]) => ({
      name: path.slice('/v1/actions/'.length),
      hasFields: Object.keys(post?.requestBody?.content['application/json'].schema.properties ?? {}).length > 0,
    }));
}

/** Asserts the workspace still has no contacts and no tags. */
async function assertNothingWritten(ws: TestWorkspace): Promise<void> {
  assert.deepEqual((await ws.action('search-contacts', {})).body, [], 'no contact was written');
  assert.deepEqual((await ws.action('list-tags', {})).body, [], 'no tag was written');
}

const post = (ws: TestWorkspace, action: string, rawBody: string, contentType?: string) =>
  server.http.send('POST', `/api/v1/actions/${action}`, {
    token: ws.token,
    rawBody,
    ...(contentType && { headers: { 'content-type': contentType } }),
  });

describe(`errors (${ENGINE})`, () => {
  test('validation › wrong types answer 400 validation_failed naming every offending field', async () => {
    const ws = await createWorkspace(server);
    const res = await ws.action('create-contact', { phone: 14155550100, name: 3, metadata: 'x' });
    const problem = assertProblem(res, 400, 'validation_failed', '/api/v1/actions/create-contact');
    assert.deepEqual(fieldsOf(problem).sort(), ['metadata', 'name', 'phone']);
    assert.ok(
      problem.errors?.every((e) => e.message.length > 0),
      'each field error says what is wrong',
    );
    await assertNothingWritten(ws);
  });

  test('validation › a missing required field and a malformed id are named in errors[].field', async () => {
    const ws = await createWorkspace(server);
    assert.deepEqual(
      fieldsOf(assertProblem(await ws.action('create-contact', { name: 'x' }), 400, 'validation_failed')),
      ['phone'],
    );
    const badId = await ws.action('get-template', { template_id: 'not-a-uuid' });
    assert.ok(fieldsOf(assertProblem(badId, 400, 'validation_failed')).includes('template_id'));
    const query = await ws.get('/v1/dropdowns/template-variables');
    assert.ok(fieldsOf(assertProblem(query, 400, 'validation_failed')).includes('template_id'), 'query parameters too');
  });

  test('validation › a urn:uuid: id is a 400 on every engine, not a database error', async () => {
    const ws = await createWorkspace(server);
    const urn = `urn:uuid:${UNKNOWN_ID}`;
    for (const [action, body] of [
      ['get-contact', { contact_id: urn }],
      ['update-contact', { contact_id: urn, name: 'x' }],
      ['add-tag', { contact_id: urn, tag: 'x' }],
      ['get-template', { template_id: urn }],
    ] as const) {
      const res = await ws.action(action, body);
      assert.ok(fieldsOf(assertProblem(res, 400, 'validation_failed')).includes(Object.keys(body)[0]!), action);
    }
  });

  test('400 › malformed or empty JSON is invalid_json; JSON that is not an object is validation_failed', async () => {
    const ws = await createWorkspace(server);
    for (const raw of ['{"phone":', '{"phone": "+14155550100",}', "{'phone': '+14155550100'}", '']) {
      assertProblem(await post(ws, 'create-contact', raw, 'application/json'), 400, 'invalid_json');
    }
    for (const raw of ['[]', 'null', '"+14155550100"', '42']) {
      const problem = assertProblem(
        await post(ws, 'create-contact', raw, 'application/json'),
        400,
        'validation_failed',
      );
      assert.deepEqual(fieldsOf(problem), ['body'], raw);
    }
    await assertNothingWritten(ws);
  });

  test('400 › text holding a NUL character is refused on every engine, and nothing is written', async () => {
    const ws = await createWorkspace(server);
    const raw = '{"phone": "+14155550100", "name": "Ada\\u0000Lovelace", "metadata": {"k": "v"}}';
    const problem = assertProblem(await post(ws, 'create-contact', raw, 'application/json'), 400, 'validation_failed');
    assert.match(problem.detail, /NUL/);
    assert.deepEqual(codesOf(problem), ['requests.nul_character']);
    const escaped = '{"phone": "+14155550100", "name": "back\\\\u0000slash"}';
    const created = await post(ws, 'create-contact', escaped, 'application/json');
    assert.equal(created.status, 201, 'an escaped backslash followed by u0000 is ordinary text');
    assert.equal((created.body as { name: string }).name, 'back\\u0000slash');
  });

  test('400 › a lone UTF-16 surrogate in a value or a key is refused on every engine, and nothing is written', async () => {
    const ws = await createWorkspace(server);
    const value = 'requests.lone_surrogate';
    const refused: [string, string, string, string][] = [
      ['create-contact', '{"phone": "+14155550100", "metadata": {"note": "a\\ud800b"}}', 'metadata.note', value],
      ['create-contact', '{"phone": "+14155550100", "name": "\\udc00Ada"}', 'name', value],
      [
        'create-contact',
        '{"phone": "+14155550100", "metadata": {"\\ud800": "v"}}',
        'metadata',
        'requests.name_lone_surrogate',
      ],
      ['simulate-inbound-message', '{"phone": "+14155550100", "text": "hi \\udbff"}', 'text', value],
      [
        'save-sequence',
        '{"name": "Welcome \\ud800", "steps": [{"action": {"type": "add_tag", "tag": "x"}}]}',
        'name',
        value,
      ],
      [
        'save-flow',
        '{"name": "Support", "definition": {"start": "a", "nodes": [{"id": "a", "type": "send_text", "text": "\\ud800"}]}}',
        'definition.nodes.0.text',
        value,
      ],
    ];
    for (const [action, raw, field, code] of refused) {
      const problem = assertProblem(await post(ws, action, raw, 'application/json'), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(problem), [field], `${action}: ${raw}`);
      assert.deepEqual(codesOf(problem), [code], `${action}: ${raw}`);
      assert.match(problem.detail, /surrogate/);
    }
    await assertNothingWritten(ws);
    const paired = await post(
      ws,
      'create-contact',
      '{"phone": "+14155550100", "name": "Ada \\ud83d\\ude00"}',
      'application/json',
    );
    assert.equal(paired.status, 201, 'a surrogate pair (an emoji) is ordinary text');
    assert.equal((paired.body as Contact).name, 'Ada \u{1F600}');
  });

  test('400 › JSON nested deeper than 64 levels is refused on every engine; 64 levels are accepted', async () => {
    const ws = await createWorkspace(server);
    const nested = (levels: number) => '{"k":'.repeat(levels) + '1' + '}'.repeat(levels);
    const deep = `{"phone": "+14155550100", "metadata": ${nested(5000)}}`;
    const problem = assertProblem(await post(ws, 'create-contact', deep, 'application/json'), 400, 'validation_failed');
    assert.match(problem.detail, /64 levels/);
    assert.deepEqual(
      problem.errors?.map(({ code, params }) => ({ code, params })),
      [{ code: 'requests.nests_too_deep', params: { levels: 64 } }],
    );
    const arrays = `{"phone": "+14155550100", "tags": ${'['.repeat(65)}${']'.repeat(65)}}`;
    assertProblem(await post(ws, 'create-contact', arrays, 'application/json'), 400, 'validation_failed');
    await assertNothingWritten(ws);
    // The body is level 1 and metadata level 2, so 62 more objects reach the cap exactly.
    const deepest = `{"phone": "+14155550100", "metadata": ${nested(63)}}`;
    const created = await post(ws, 'create-contact', deepest, 'application/json');
    assert.equal(created.status, 201, created.text);
  });

  test('400 › a NUL in a query string, or a URL path that is no UTF-8, is refused in the same shape', async () => {
    const session = await ownerSession(server);
    for (const pathname of ['/api/dashboard/contacts?query=a%00b', '/api/dashboard/contacts/export.csv?tag=%00']) {
      const problem = assertProblem(await session.send('GET', pathname), 400, 'validation_failed');
      assert.match(problem.detail, /NUL/, pathname);
    }
    for (const pathname of ['/api/dashboard/invites/%FF', '/api/dashboard/contacts/%ED%A0%80/activity']) {
      assertProblem(await session.send('GET', pathname), 400, 'validation_failed');
    }
  });

  test('401 › a missing token is unauthorized, in the same shape', async () => {
    const res = await server.http.send('POST', '/api/v1/actions/search-contacts', { body: {} });
    assertProblem(res, 401, 'unauthorized', '/api/v1/actions/search-contacts');
  });

  test('403 › a read-only token writing is insufficient_scope, in the same shape', async () => {
    const ws = await createWorkspace(server, { scope: 'read' });
    assertProblem(await ws.action('create-contact', { phone: '+14155550100' }), 403, 'insufficient_scope');
  });

  test('404 › an unknown route is route_not_found, with or without a token', async () => {
    const ws = await createWorkspace(server);
    for (const token of [ws.token, undefined]) {
      for (const path of ['/api/v1/actions/delete-everything', '/api/v2/me', '/nowhere']) {
        assertProblem(await server.http.send('GET', path, { ...(token && { token }) }), 404, 'route_not_found', path);
      }
    }
    const unknownAction = await ws.action('delete-everything', {});
    assertProblem(unknownAction, 404, 'route_not_found', '/api/v1/actions/delete-everything');
  });

  test('404 › an unknown id is not_found naming the field', async () => {
    const ws = await createWorkspace(server);
    const contact = assertProblem(await ws.action('get-contact', { contact_id: UNKNOWN_ID }), 404, 'not_found');
    assert.match(contact.detail, /contact/i);
    assert.deepEqual(fieldsOf(contact), ['contact_id']);
    const template = assertProblem(await ws.action('get-template', { template_id: UNKNOWN_ID }), 404, 'not_found');
    assert.deepEqual(fieldsOf(template), ['template_id']);
    const byPhone = assertProblem(await ws.action('add-tag', { phone: '+14155550100', tag: 'vip' }), 404, 'not_found');
    assert.deepEqual(fieldsOf(byPhone), ['phone']);
    assert.deepEqual((await ws.action('list-tags', {})).body, [], 'add-tag on an unknown contact creates no tag');
  });

  test('405 › the wrong method on an endpoint is method_not_allowed with Allow', async () => {
    const ws = await createWorkspace(server);
    const get = await server.http.send('GET', '/api/v1/actions/create-contact', { token: ws.token });
    assertProblem(get, 405, 'method_not_allowed', '/api/v1/actions/create-contact');
    assert.equal(get.headers.allow, 'POST');
    const post = await server.http.send('POST', '/api/v1/me', { token: ws.token, body: {} });
    assertProblem(post, 405, 'method_not_allowed');
    assert.match(String(post.headers.allow), /GET/);
    await assertNothingWritten(ws);
  });

  test('409 › changing a phone to one another contact has is a conflict', async () => {
    const ws = await createWorkspace(server);
    const a = await ws.action<Contact>('create-contact', { phone: '+14155550101' });
    await ws.action('create-contact', { phone: '+14155550102' });
    assertProblem(await ws.action('update-contact', { contact_id: a.body.id, phone: '+14155550102' }), 409, 'conflict');
    const still = await ws.action<Contact>('get-contact', { contact_id: a.body.id });
    assert.equal(still.body.phone, '+14155550101', 'the refused update changed nothing');
  });

  test('413 › a body over 1 MiB is payload_too_large and writes nothing', async () => {
    const ws = await createWorkspace(server);
    const big = { phone: '+14155550100', name: 'Big', metadata: { blob: 'x'.repeat(1024 * 1024) } };
    assertProblem(await ws.action('create-contact', big), 413, 'payload_too_large');
    await assertNothingWritten(ws);
    const almost = { phone: '+14155550100', metadata: { blob: 'x'.repeat(1000 * 1000) } };
    assert.equal((await ws.action('create-contact', almost)).status, 201, 'just under 1 MiB is accepted');
  });

  test('415 › text, form and multipart bodies (or none declared) are unsupported_media_type and write nothing', async () => {
    const ws = await createWorkspace(server);
    const cases: [string, string | undefined][] = [
      ['{"phone":"+14155550100"}', 'text/plain'],
      ['phone=%2B14155550100&name=Ada', 'application/x-www-form-urlencoded'],
      [
        '--b\r\nContent-Disposition: form-data; name="phone"\r\n\r\n+14155550100\r\n--b--',
        'multipart/form-data; boundary=b',
      ],
      ['<phone>+14155550100</phone>', 'application/xml'],
      ['{"phone":"+14155550100"}', undefined],
    ];
    for (const [raw, type] of cases) {
      assertProblem(await post(ws, 'create-contact', raw, type), 415, 'unsupported_media_type');
    }
    await assertNothingWritten(ws);
  });

  test('every action › bad input is a 4xx problem, never a 500, and writes nothing', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 10_000 });
    await createTemplate(server.app.services, ws.workspaceId);
    const wrongTypes = {
      phone: {},
      name: [],
      email: 1,
      tags: 5,
      metadata: 'x',
      contact_id: 7,
      tag: {},
      template_id: [],
      query: 1,
      status: {},
      message: 5,
      language: 5,
      variables: 'x',
      sequence_id: 5,
      flow_id: 5,
      run_id: 5,
      enrolment_id: 5,
      context: 'x',
      stop_keywords: 5,
      start_keywords: {},
      confirm: 'yes',
      limit: 'x',
      provider: 5,
      channel_id: 5,
      from_phone_number_id: 5,
      reply_to_message_id: 5,
      media_id: 5,
      media_url: 5,
      caption: 5,
      filename: 5,
      type: 5,
      body: 5,
      header: 5,
      footer: 5,
      buttons: 'x',
      button: 5,
      sections: 'x',
      display_text: 5,
      url: 5,
      latitude: 'x',
      longitude: 'x',
      address: 5,
      contacts: 'x',
      message_id: 5,
      emoji: 5,
      data: 5,
      mime_type: 5,
      typing_indicator: 'yes',
      category: 5,
      translations: 'x',
      shortcut: 5,
      quick_reply_id: 5,
      button_reply: 'x',
      list_reply: 5,
      auto_assign: 'yes',
      agent_limit: 'x',
      rules: 5,
      kind: 5,
      templates: 'yes',
      quick_replies: 'yes',
    };
    const inputs: [string, string | undefined, number][] = [
      ['{"phone":', 'application/json', 400],
      ['{"__proto__": {"admin": true}, "phone": "+14155550100"}', 'application/json', 400],
      ['[{"phone": "+14155550100"}]', 'application/json', 400],
      [JSON.stringify(wrongTypes), 'application/json', 400],
      ['{"phone": "+14155550100", "name": "\\ud800", "query": "\\udc00"}', 'application/json', 400],
      [`{"phone": "+14155550100", "metadata": ${'['.repeat(5000)}${']'.repeat(5000)}}`, 'application/json', 400],
      ['{"phone":"+14155550100","name":"A"}', 'text/plain', 415],
      ['phone=%2B14155550100', 'application/x-www-form-urlencoded', 415],
      [JSON.stringify({ phone: '+14155550100', blob: 'x'.repeat(1024 * 1024 + 1) }), 'application/json', 413],
    ];
    const TAKES_FILES = new Set(['upload-media', 'create-knowledge-document', 'update-knowledge-source']);
    const actions = await documentedActions();
    assert.ok(actions.length >= 9, `actions found: ${actions.map((a) => a.name).join(', ')}`);
    for (const { name: action, hasFields } of actions) {
      for (const [raw, type, status] of inputs) {
        // Unknown fields are ignored everywhere, so an action without fields takes `wrongTypes` as an empty body.
        if (!hasFields && raw === JSON.stringify(wrongTypes)) continue;
        const res = await post(ws, action, raw, type);
        // These take files in base64 (media up to 100 MB, knowledge documents up to theirs): 1 MiB is
        // just too little for them, not too much.
        const expected = TAKES_FILES.has(action) && status === 413 ? 400 : status;
        assert.equal(res.status, expected, `${action} ${type} ${raw.slice(0, 40)}: ${res.text}`);
        assertProblem(res, expected, (res.body as Problem).code);
      }
    }
    await assertNothingWritten(ws);
  });
});
