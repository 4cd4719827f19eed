/**
 * Parley's MCP endpoint through the official MCP Inspector's command line (`mcp-inspector --cli`), as a
 * developer checks a server: tools/list as a read-only token and as an admin's, and tools/call. The
 * Inspector needs Node 22 or later: the test runs it with this process's node when it is one, else
 * PARLEY_INSPECTOR_NODE, else the first such binary in PARLEY_TEST_NODES (scripts/test.sh, .ci/run).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createWorkspace } from './factories.js';
import { ENGINE, startServer } from './server.js';

const run = promisify(execFile);
const INSPECTOR_MIN_NODE = 22;

/** The major version of a node binary. */
async function majorOf(node: string): Promise<number> {
  const { stdout } = await run(node, ['--version']);
  return Number(/^v(\d+)/.exec(stdout.trim())?.[1] ?? 0);
}

/** A node binary the Inspector runs on, or an error that says where the test looked. */
async function inspectorNode(): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= INSPECTOR_MIN_NODE) return process.execPath;
  const candidates = [process.env.PARLEY_INSPECTOR_NODE, ...(process.env.PARLEY_TEST_NODES ?? '').split(/\s+/)];
  for (const node of candidates.filter((candidate): candidate is string => !!candidate)) {
    if (fs.existsSync(node) && (await majorOf(node)) >= INSPECTOR_MIN_NODE) return node;
  }
  throw new Error(
    `The MCP Inspector needs Node ${INSPECTOR_MIN_NODE} or later; this is Node ${process.versions.node}. ` +
      'Set PARLEY_INSPECTOR_NODE (or PARLEY_TEST_NODES, as .ci/run does) to such a node binary, e.g. ' +
      'npm install --prefix /tmp/node24 node@24 and /tmp/node24/node_modules/node/bin/node.',
  );
}

/** The Inspector's command-line entry, from its package's `bin`. */
function inspectorBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@modelcontextprotocol/inspector/package.json');
  const { bin } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return path.join(path.dirname(manifest), bin['mcp-inspector']!);
}

const server = await startServer();
/** The Inspector's own files (its catalog) and the server's certificate, which it is told to trust. */
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-inspector-'));
const caFile = path.join(home, 'parley-ca.pem');
fs.writeFileSync(caFile, server.app.tls!.cert);
after(() => fs.rmSync(home, { recursive: true, force: true }));

let node = '';
before(async () => {
  node = await inspectorNode();
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** One `mcp-inspector --cli` run against Parley's /mcp as `token`. */
async function inspector(token: string, ...args: string[]): Promise<Outcome> {
  const argv = [inspectorBin(), '--cli', `${server.baseUrl}/mcp`, '--transport', 'http'];
  argv.push('--header', `Authorization: Bearer ${token}`, ...args);
  const env = { PATH: process.env.PATH, HOME: home, NODE_EXTRA_CA_CERTS: caFile, NO_COLOR: '1' };
  try {
    const { stdout, stderr } = await run(node, argv, { env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The tools tools/list shows the token, as the Inspector printed them. */
async function listedTools(token: string): Promise<Tool[]> {
  const listed = await inspector(token, '--method', 'tools/list');
  assert.equal(listed.code, 0, listed.stderr);
  return (JSON.parse(listed.stdout) as { tools: Tool[] }).tools;
}

describe(`MCP through the official Inspector's CLI (${ENGINE})`, () => {
  test('tools/list › a read-only token sees only the read tools; an admin’s token sees them all, with their hints', async () => {
    const admin = await createWorkspace(server, { rateLimitPerMinute: 10_000 });
    const reader = await createWorkspace(server, { scope: 'read', rateLimitPerMinute: 10_000 });
    const all = await listedTools(admin.token);
    const reads = await listedTools(reader.token);
    assert.ok(all.length > 100, `${all.length} tools`);
    assert.deepEqual(
      reads.map((tool) => tool.name),
      all.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name),
    );
    assert.ok(reads.every((tool) => tool.annotations?.destructiveHint === false));
    const send = all.find((tool) => tool.name === 'send_text_message')!;
    assert.deepEqual(
      [send.annotations?.destructiveHint, send.annotations?.openWorldHint, send.annotations?.idempotentHint],
      [true, true, false],
    );
    assert.ok(send.inputSchema.properties?.reasoning, 'a send takes the agent’s reasoning');
  });

  test('tools/list --strict › no tool schema has a portability problem the Inspector counts as an error', async () => {
    const admin = await createWorkspace(server, { rateLimitPerMinute: 10_000 });
    const strict = await inspector(admin.token, '--method', 'tools/list', '--strict');
    assert.equal(strict.code, 0, strict.stderr);
  });

  test('tools/call › an admin’s token creates a contact; a read-only token cannot call it, for it is not listed', async () => {
    const admin = await createWorkspace(server, { rateLimitPerMinute: 10_000 });
    const args = ['--method', 'tools/call', '--tool-name', 'create_contact'];
    const created = await inspector(admin.token, ...args, '--tool-arg', 'phone=+14155550123', '--tool-arg', 'name=Ada');
    assert.equal(created.code, 0, created.stderr);
    const result = JSON.parse(created.stdout) as { structuredContent: { phone: string; name: string } };
    assert.deepEqual([result.structuredContent.phone, result.structuredContent.name], ['+14155550123', 'Ada']);
    assert.equal((await admin.action<{ name: string }>('get-contact', { phone: '+14155550123' })).body.name, 'Ada');

    // The Inspector calls only what tools/list offered: for a read-only token, create_contact is not there.
    const reader = await createWorkspace(server, { scope: 'read', rateLimitPerMinute: 10_000 });
    const refused = await inspector(reader.token, ...args, '--tool-arg', 'phone=+14155550124');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /"code":"tool_not_found"/);
    assert.equal((await reader.action('get-contact', { phone: '+14155550124' })).status, 404, 'nothing created');
  });
});
