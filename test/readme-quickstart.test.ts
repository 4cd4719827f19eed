/**
 * The README's quick start, run as a newcomer runs it: a real server (what `npm start` runs) on a fresh
 * DATA_DIR, and the walkthrough's shell commands — `npx parley …` and `curl` — run by bash from the
 * repository, as written. A command the README shows that no longer works fails here. Also: every
 * relative link in README.md and docs/*.md names a file (and heading) that exists.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { REPO_ROOT } from './cli.js';
import { startParleyProcess } from './parley-process.js';
import { ENGINE } from './server.js';

const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
/** Where the README's commands say the server is; the test's server listens on a random port. */
const README_ORIGIN = 'https://127.0.0.1:8443';
/** The certificate path the README's curl calls trust: DATA_DIR's default (./data) seen from the repository. */
const README_CERT = 'data/tls/cert.pem';

/** The text of a `## heading` section of a Markdown document, up to the next heading of that level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README.md has no "## ${heading}" section`);
  const rest = markdown.slice(start + 1);
  const end = rest.indexOf('\n## ', 1);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The bodies of the ```sh blocks of a Markdown text, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** A block's commands: continuation lines joined, comments and blank lines left out. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The walkthrough's `NAME=<what to copy>` lines ask the reader to copy a value from the previous
 * command's output; this is where the reader finds it.
 */
const COPIED: Record<string, (output: Record<string, unknown>) => unknown> = {
  WS: (output) => (output.workspace as { id?: unknown } | undefined)?.id,
  TOKEN: (output) => output.token,
};

interface Run {
  command: string;
  stdout: string;
  stderr: string;
}

/** Runs one line with bash in the repository, as a reader pastes it into a terminal there. */
function bash(command: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', command], { cwd: REPO_ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`\`${command}\` failed (${String(error.code)}): ${stderr}${stdout}`));
      else resolve({ command, stdout, stderr });
    });
  });
}

/** The command's JSON answer; a problem document (a refused request) fails the walkthrough. */
function answer(run: Run): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    assert.fail(`\`${run.command}\` printed no JSON: ${run.stdout}${run.stderr}`);
  }
  const problem = parsed as { type?: unknown; status?: unknown };
  assert.ok(
    !(typeof problem.type === 'string' && problem.type.startsWith('urn:parley:problem:')),
    `\`${run.command}\` was refused: ${run.stdout}`,
  );
  return parsed;
}

describe(`README quick start (${ENGINE})`, { skip: ENGINE !== 'sqlite' && 'the quick start runs on SQLite' }, () => {
  test('quick start › the npm commands name what package.json runs', () => {
    const [npm] = shellBlocks(section(README, 'Quick start'));
    assert.deepEqual(
      commands(npm!).map((line) => line.split(/\s+#/)[0]!.trim()),
      ['npm ci', 'npm start', 'npm test'],
    );
    // The test below starts src/main.ts as `npm start` does (npm ci and npm test are not run here:
    // the one would reinstall the shared node_modules, the other is the whole suite this file is in).
    const { scripts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.equal(scripts.start, 'node --import tsx src/main.ts');
    assert.ok(scripts.test);
  });

  test('walkthrough › every command works against a fresh server', { timeout: 300_000 }, async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-readme-'));
    after(() => fs.rmSync(scratch, { recursive: true, force: true }));
    const dataDir = path.join(scratch, 'data');
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir };
    // The README's curl calls trust the certificate the server generates; this process's own client is unused.
    const server = await startParleyProcess('npm start', env, '');
    assert.ok(fs.existsSync(path.join(dataDir, 'tls', 'cert.pem')), 'the server made no certificate in DATA_DIR/tls');

    const walkthrough = shellBlocks(section(README, 'A five-minute walkthrough'));
    assert.equal(walkthrough.length, 1, 'the walkthrough is one shell block');
    const lines = commands(walkthrough[0]!);
    assert.ok(lines.some((line) => line.startsWith('curl ')) && lines.some((line) => line.startsWith('npx parley ')));
    const answers = new Map<string, unknown>();
    let previous: Record<string, unknown> = {};
    for (const line of lines) {
      const copied = /^([A-Z_]+)=<[^>]*>$/.exec(line);
      if (copied) {
        const find = COPIED[copied[1]!];
        assert.ok(find, `the test does not know where the reader finds ${copied[1]}: add it to COPIED`);
        const value = find(previous);
        assert.equal(typeof value, 'string', `${copied[1]} is not in the previous output`);
        env[copied[1]!] = value as string;
        continue;
      }
      // The two things that differ from a fresh checkout: the server's port, and its DATA_DIR.
      const command = line
        .replaceAll(README_ORIGIN, server.baseUrl)
        .replaceAll(README_CERT, `"$DATA_DIR/tls/cert.pem"`);
      previous = answer(await bash(command, env)) as Record<string, unknown>;
      answers.set(/\/api\/v1\/(\S+)/.exec(line)?.[1] ?? line.split(' ').slice(0, 3).join(' '), previous);
    }

    const me = answers.get('me') as { workspace?: { id?: string } };
    assert.equal(me.workspace?.id, env.WS);
    const contact = answers.get('actions/create-contact') as { phone: string; name: string; tags: string[] };
    assert.equal(contact.phone, '+14155550100');
    assert.equal(contact.name, 'Ada Lovelace');
    assert.deepEqual([...contact.tags].sort(), ['beta', 'vip']);
    const found = answers.get('actions/search-contacts') as { name: string }[];
    assert.deepEqual(
      found.map((c) => c.name),
      ['Ada Lovelace'],
    );
    const templates = answers.get('actions/list-templates') as { status: string }[];
    assert.ok(templates.length > 0, 'the imported example has approved templates');
    assert.ok(templates.every((template) => template.status === 'APPROVED'));
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file's headings make (a repeated heading gets -1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!.replaceAll('`', ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The Markdown without its fenced blocks, whose `#` lines are comments, not headings. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^[ \t]*```[\s\S]*?^[ \t]*```$/gm, '');
}

/** The Markdown without fenced blocks and inline code, where `](` is code, not a link. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

describe('documentation links', () => {
  const pages = [
    'README.md',
    ...fs
      .readdirSync(path.join(REPO_ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];

  test('links › every relative link in README.md and docs/*.md names a file and heading that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const markdown = fs.readFileSync(path.join(REPO_ROOT, page), 'utf8');
      for (const [, target] of withoutCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = file === '' ? path.join(REPO_ROOT, page) : path.resolve(REPO_ROOT, path.dirname(page), file);
        if (!fs.existsSync(resolved)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
