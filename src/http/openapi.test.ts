import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { createConfig, lintFromString, parseYaml } from '@redocly/openapi-core';
import { generateOpenApiYaml, SNAPSHOT_FILE } from '../../scripts/openapi-snapshot.js';
import { ENGINE, startServer } from '../../test/server.js';
import { FlowNodeSchema } from '../flows/flow.definition.js';
import { ERROR_CODES } from '../shared/errors.js';

const server = await startServer({ PUBLIC_BASE_URL: 'https://parley.example.com' });

interface MediaType {
  schema?: { $ref?: string; type?: string };
}
interface Response {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}
interface Operation {
  operationId?: string;
  security?: unknown[];
  tags?: string[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, { $ref?: string }> } }> };
  responses: Record<string, Response>;
}
interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme?: string }>;
    schemas: Record<string, { required?: string[]; properties?: Record<string, { enum?: string[] }> }>;
  };
}

const PROBLEM_REF = '#/components/schemas/Problem';

/** The spec's endpoints (§4) and the extra ones the product brief promises, as [method, path]. */
const SPEC_ENDPOINTS = [
  ['get', '/v1/me'],
  ['get', '/v1/triggers/new-message-received'],
  ['get', '/v1/triggers/new-campaign-sent'],
  ['get', '/v1/triggers/new-flow-triggered'],
  ['get', '/v1/triggers/new-sequence-triggered'],
  ['post', '/v1/actions/create-contact'],
  ['post', '/v1/actions/update-contact'],
  ['post', '/v1/actions/get-contact'],
  ['post', '/v1/actions/search-contacts'],
  ['post', '/v1/actions/add-tag'],
  ['post', '/v1/actions/remove-tag'],
  ['post', '/v1/actions/get-template'],
  ['post', '/v1/actions/list-templates'],
  ['post', '/v1/actions/list-tags'],
  ['post', '/v1/actions/send-template-message'],
  ['post', '/v1/actions/send-text-message'],
  ['post', '/v1/actions/trigger-sequence'],
  ['post', '/v1/actions/get-sequence'],
  ['post', '/v1/actions/trigger-flow'],
  ['post', '/v1/actions/get-flow'],
  ['get', '/v1/dropdowns/templates'],
  ['get', '/v1/dropdowns/sequences'],
  ['get', '/v1/dropdowns/flows'],
  ['get', '/v1/dropdowns/template-variables'],
  ['get', '/zapier/me'],
  ['get', '/zapier/triggers/new-message-received'],
] as const;

/** Spec endpoints whose domains (messaging, sequences, flows) are not built yet. */
async function fetchDocument(): Promise<OpenApiDocument> {
  const res = await server.http.send<OpenApiDocument>('GET', '/api/v1/openapi.json');
  assert.equal(res.status, 200);
  return res.body;
}

function operations(doc: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]): [string, string, Operation] => [method, path, op]),
  );
}

describe(`OpenAPI (${ENGINE})`, () => {
  test('openapi.yaml › is served without a token as OpenAPI 3.1, the same document as openapi.json', async () => {
    const yaml = await server.http.send('GET', '/api/v1/openapi.yaml');
    assert.equal(yaml.status, 200);
    assert.match(String(yaml.headers['content-type']), /^application\/yaml/);
    const parsed = parseYaml(yaml.text) as OpenApiDocument;
    assert.equal(parsed.openapi, '3.1.0');
    assert.deepEqual(parsed, await fetchDocument());
  });

  test('servers › the server URL is PUBLIC_BASE_URL + /api, so server URL + path is the request address', async () => {
    const doc = await fetchDocument();
    assert.deepEqual(
      doc.servers.map((s) => s.url),
      ['https://parley.example.com/api'],
    );
    for (const path of Object.keys(doc.paths)) assert.ok(!path.startsWith('/api'), `${path} repeats the /api prefix`);
  });

  test('security › a bearer scheme applies to every operation', async () => {
    const doc = await fetchDocument();
    const [name, scheme] = Object.entries(doc.components.securitySchemes)[0] ?? [];
    assert.deepEqual(scheme && { type: scheme.type, scheme: scheme.scheme }, { type: 'http', scheme: 'bearer' });
    assert.deepEqual(doc.security, [{ [name!]: [] }]);
    for (const [method, path, op] of operations(doc)) {
      assert.equal(op.security, undefined, `${method} ${path} must not opt out of the bearer scheme`);
    }
  });

  test('spec endpoints › all present at their spec paths', async () => {
    const doc = await fetchDocument();
    const missing = SPEC_ENDPOINTS.filter(([method, path]) => !doc.paths[path]?.[method]);
    assert.deepEqual(missing, []);
  });

  test('operations › each has an id, a 200/201 schema and its errors as Problem (application/problem+json)', async () => {
    const doc = await fetchDocument();
    const ids = new Set<string>();
    for (const [method, path, op] of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId && !ids.has(op.operationId), `${where}: unique operationId`);
      ids.add(op.operationId);
      const success = op.responses['200'] ?? op.responses['201'];
      assert.ok(success?.content?.['application/json']?.schema, `${where}: a 200/201 JSON schema`);
      const expected = method === 'post' ? [400, 401, 403, 413, 415, 422, 429] : [400, 401, 429];
      for (const status of expected) {
        assert.ok(op.responses[status], `${where}: documents ${status}`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        assert.ok(response.description.length > 0, `${where} ${status}: a description`);
        assert.deepEqual(Object.keys(response.content ?? {}), ['application/problem+json'], `${where} ${status}`);
        assert.equal(response.content?.['application/problem+json']?.schema?.$ref, PROBLEM_REF, `${where} ${status}`);
      }
      assert.ok(op.responses['429']?.headers?.['Retry-After'], `${where}: 429 documents Retry-After`);
      if (method === 'post') {
        const header = op.parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
        assert.ok(header, `${where}: documents the Idempotency-Key header`);
      }
    }
  });

  test('tags › every tag an operation uses is declared, with a description', async () => {
    const doc = await fetchDocument();
    const declared = new Map(doc.tags.map((tag) => [tag.name, tag.description ?? '']));
    const used = new Set(operations(doc).flatMap(([, , op]) => op.tags ?? []));
    assert.ok(used.has('Quick replies') && used.has('Workspace'));
    for (const tag of used) assert.ok(declared.get(tag), `tag "${tag}" is declared with a description`);
  });

  test('Problem › the schema has the fields every error carries and lists every error code', async () => {
    const problem = (await fetchDocument()).components.schemas.Problem;
    assert.ok(problem);
    assert.deepEqual([...(problem.required ?? [])].sort(), [
      'code',
      'detail',
      'instance',
      'request_id',
      'status',
      'title',
      'type',
    ]);
    assert.deepEqual([...(problem.properties?.code?.enum ?? [])].sort(), Object.keys(ERROR_CODES).sort());
  });

  test('save-flow and save-flow-draft › the definition is published as FlowDefinition, its nodes as FlowNode of every type', async () => {
    const doc = await fetchDocument();
    for (const action of ['save-flow', 'save-flow-draft']) {
      const body = doc.paths[`/v1/actions/${action}`]?.post?.requestBody?.content['application/json']?.schema;
      assert.equal(body?.properties?.definition?.$ref, '#/components/schemas/FlowDefinition', action);
    }
    const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
    const definition = schemas.FlowDefinition as { properties: Record<string, { items?: { $ref?: string } }> };
    assert.deepEqual(Object.keys(definition.properties), ['start', 'keywords', 'nodes']);
    assert.equal(definition.properties.nodes?.items?.$ref, '#/components/schemas/FlowNode');
    const nodeTypes = (schemas.FlowNode?.anyOf as { title: string; properties: object }[]).map((node) => node.title);
    assert.deepEqual(
      nodeTypes,
      FlowNodeSchema.anyOf.map((node) => node.properties.type.const),
    );
  });

  test('operations › every documented operation is served at server URL + path', async () => {
    const doc = await fetchDocument();
    const prefix = new URL(doc.servers[0]!.url).pathname;
    for (const [index, [method, path]] of operations(doc).entries()) {
      // The anonymous budget is 120 requests a minute per address: the document has more operations.
      if (index % 100 === 0) server.clock.advance(60_000);
      const verb = method.toUpperCase() as 'GET' | 'POST';
      const res = await server.http.send(verb, `${prefix}${path}`, verb === 'POST' ? { body: {} } : {});
      assert.equal(res.status, 401, `${verb} ${prefix}${path} exists and wants a token (${res.status})`);
    }
  });

  test('lint › the document passes the Redocly recommended ruleset with no errors', async (t) => {
    const yaml = (await server.http.send('GET', '/api/v1/openapi.yaml')).text;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: yaml, absoluteRef: 'openapi.yaml', config });
    const describe = (p: (typeof problems)[number]) =>
      `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer ?? '').join(', ')}`;
    for (const problem of problems) t.diagnostic(describe(problem));
    t.diagnostic(`redocly recommended: ${problems.filter((p) => p.severity === 'warn').length} warning(s)`);
    assert.deepEqual(problems.filter((p) => p.severity === 'error').map(describe), []);
  });

  test('/api/docs › renders an HTML API reference without a token', async () => {
    const res = await server.http.send('GET', '/api/docs');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.text, /<html/i);
  });

  test('snapshot › docs/openapi.yaml is up to date', async () => {
    const fresh = (await generateOpenApiYaml()).public;
    const checkedIn = fs.existsSync(SNAPSHOT_FILE) ? fs.readFileSync(SNAPSHOT_FILE, 'utf8') : '';
    assert.ok(
      checkedIn === fresh,
      'docs/openapi.yaml is stale: run `node --import tsx scripts/openapi-snapshot.ts` and commit the result',
    );
  });
});
