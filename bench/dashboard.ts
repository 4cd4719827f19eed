import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { openDatabase } from '../src/db/connection.js';
import { systemClock } from '../src/shared/clock.js';
import { createIdGenerator } from '../src/shared/ids.js';
import { toStoredTimestamp } from '../src/shared/time.js';
import { generatedCertificate, NodeProcess, parleyCli } from './processes.js';
import { writeMarkdown } from './report.js';
import { seedConversations, timeInboxOpen } from './dashboard-inbox.js';
import { seedThread, THREAD_MESSAGES, timeThreadOpen } from './dashboard-thread.js';

/**
 * `npm run bench:dashboard`: the dashboard's figures from issues 5 and 21 — the JavaScript a first load
 * fetches (gzip'd, as served) and how long the contacts table takes to render a page of 100 rows —
 * against a real server on SQLite holding BENCH_DASHBOARD_CONTACTS contacts, in Debian's Chromium.
 */
const env = process.env;
const settings = {
  contacts: Number(env.BENCH_DASHBOARD_CONTACTS ?? 200_000),
  conversations: Number(env.BENCH_DASHBOARD_CONVERSATIONS ?? 10_000),
  pages: Number(env.BENCH_DASHBOARD_PAGES ?? 30),
  port: Number(env.BENCH_PORT ?? 18447),
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const EMAIL = 'bench@bench.example';
const PASSWORD = 'bench-password';
const root = path.join(import.meta.dirname, '..');

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** The built bundle's sizes as browsers receive them (gzip), as scripts/build-web.ts records them. */
interface BundleSizes {
  firstLoadJsGzipKiB: number;
  allJsGzipKiB: number;
  cssGzipKiB: number;
}
function bundleSizes(): BundleSizes {
  execFileSync('node', ['--import', 'tsx', 'scripts/build-web.ts'], { cwd: root, stdio: 'ignore' });
  return JSON.parse(fs.readFileSync(path.join(root, 'web', 'dist', 'sizes.json'), 'utf8')) as BundleSizes;
}

/** Contacts with distinct last-message times, so the table's order (latest first) is meaningful. */
async function seedContacts(dataDir: string, workspaceId: string): Promise<void> {
  const { db } = openDatabase({ databaseUrl: null, dataDir });
  const newId = createIdGenerator(systemClock);
  const now = Date.now();
  for (let i = 0; i < settings.contacts; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, settings.contacts - i) }, (_, k) => {
      const n = i + k;
      const at = toStoredTimestamp(new Date(now - n * 1000));
      return {
        id: newId(),
        workspace_id: workspaceId,
        phone: `+1415${String(2_000_000 + n).padStart(7, '0')}`,
        name: `Contact ${n}`,
        email: `contact${n}@example.com`,
        custom_attributes: '{}',
        last_message_at: at,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto('contacts').values(rows).execute();
  }
  await db.destroy();
}

/**
 * Clicks "Next" and times the page of 100 rows: from the click to the rows in the DOM, and the
 * render alone (from the API response's last byte to the rows in the DOM).
 */
async function timeNextPage(page: Page): Promise<{ totalMs: number; renderMs: number }> {
  // A string, not a function: tsx would wrap the function's inner helpers in its own `__name`, which
  // does not exist in the page.
  return page.evaluate<{ totalMs: number; renderMs: number }>(`(async () => {
    const firstRow = () => document.querySelector('.contacts-table tbody tr')?.textContent ?? '';
    const before = firstRow();
    performance.clearResourceTimings();
    const next = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Next');
    const started = performance.now();
    next.click();
    const rendered = await new Promise((resolve) => {
      const check = () => {
        const rows = document.querySelectorAll('.contacts-table tbody tr').length;
        if (firstRow() !== before && rows === 100) resolve(performance.now());
        else requestAnimationFrame(check);
      };
      check();
    });
    const fetched = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/dashboard/contacts?'))
      .at(-1);
    return { totalMs: rendered - started, renderMs: rendered - fetched.responseEnd };
  })()`);
}

async function main() {
  const startedAt = new Date();
  const sizes = bundleSizes();
  log(
    `bundle: first load ${sizes.firstLoadJsGzipKiB.toFixed(1)} KiB JS, all pages ${sizes.allJsGzipKiB.toFixed(1)} KiB JS, ${sizes.cssGzipKiB.toFixed(1)} KiB CSS (gzip)`,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-dashboard-'));
  const processEnv = {
    PATH: env.PATH,
    HOME: env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: String(settings.port),
  };
  const setup = await parleyCli(
    ['setup', '--workspace', 'bench', '--email', EMAIL, '--password', PASSWORD],
    processEnv,
  );
  log(`seeding ${settings.contacts} contacts`);
  await seedContacts(dataDir, (setup.workspace as { id: string }).id);
  log(`seeding ${settings.conversations} conversations`);
  await seedConversations(dataDir, (setup.workspace as { id: string }).id, settings.conversations);
  log(`seeding a thread of ${THREAD_MESSAGES} messages`);
  await seedThread(dataDir, (setup.workspace as { id: string }).id, (setup.user as { id: string }).id);

  const server = new NodeProcess('parley', 'src/main.ts', processEnv);
  const browser = await chromium.launch({
    executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const baseUrl = `https://127.0.0.1:${settings.port}`;
    const cert = () => generatedCertificate(dataDir);
    await server.waitUntilReady(`${baseUrl}/healthz`, cert);
    const context = await browser.newContext({ baseURL: baseUrl, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    const firstLoadStarted = Date.now();
    await page.goto('/contacts');
    await page.locator('.contacts-table tbody tr').nth(99).waitFor();
    const firstPageMs = Date.now() - firstLoadStarted;
    const samples = [];
    for (let i = 0; i < settings.pages; i++) samples.push(await timeNextPage(page));
    const render = samples.map((s) => s.renderMs);
    const total = samples.map((s) => s.totalMs);
    log(`render p50 ${percentile(render, 50).toFixed(1)} ms, max ${Math.max(...render).toFixed(1)} ms`);
    log(`click → rows p50 ${percentile(total, 50).toFixed(1)} ms, p95 ${percentile(total, 95).toFixed(1)} ms`);
    const inbox = [];
    for (let i = 0; i < 10; i++) inbox.push(await timeInboxOpen(page));
    log(`inbox open p50 ${percentile(inbox, 50).toFixed(1)} ms, max ${Math.max(...inbox).toFixed(1)} ms`);
    const thread = await timeThreadOpen(page, 15);
    log(
      `thread open p50 ${percentile(thread.openMs, 50).toFixed(1)} ms, max ${Math.max(...thread.openMs).toFixed(1)} ms`,
    );

    const cpu = os.cpus();
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    const rows = [
      [
        'first load JavaScript, gzip ≤ 60 KiB',
        `${sizes.firstLoadJsGzipKiB.toFixed(1)} KiB (every page: ${sizes.allJsGzipKiB.toFixed(1)} KiB)`,
        sizes.firstLoadJsGzipKiB <= 60,
      ],
      [
        'contacts table renders 100 rows < 50 ms (API response → rows in the DOM)',
        `p50 ${fmt(percentile(render, 50))}, max ${fmt(Math.max(...render))}`,
        Math.max(...render) < 50,
      ],
      [
        'click "Next" → 100 rows shown (includes the API call)',
        `p50 ${fmt(percentile(total, 50))}, p95 ${fmt(percentile(total, 95))}`,
        null,
      ],
      ['open /contacts → first 100 rows (cold page load)', `${firstPageMs} ms`, null],
      [
        `inbox with ${settings.conversations.toLocaleString('en')} conversations opens < 300 ms (click → 50 rows, API + render)`,
        `p50 ${fmt(percentile(inbox, 50))}, max ${fmt(Math.max(...inbox))}`,
        Math.max(...inbox) < 300,
      ],
      [
        `a thread of ${THREAD_MESSAGES.toLocaleString('en')} messages opens < 300 ms (click → newest message shown, API + render)`,
        `p50 ${fmt(percentile(thread.openMs, 50))}, max ${fmt(Math.max(...thread.openMs))} (server p50 ${fmt(percentile(thread.serverMs, 50))})`,
        Math.max(...thread.openMs) < 300,
      ],
    ] as const;
    const block = [
      `Run: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:dashboard\``,
      '',
      `Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}, Chromium ${browser.version()} (Debian), SQLite with ${settings.contacts.toLocaleString('en')} contacts; ${settings.pages} pages of 100 timed. CSS: ${sizes.cssGzipKiB.toFixed(1)} KiB gzip.`,
      '',
      '| Target | Measured | Result |',
      '| --- | --- | --- |',
      ...rows.map(
        ([target, measured, pass]) =>
          `| ${target} | ${measured} | ${pass === null ? '–' : pass ? 'pass' : '**FAIL**'} |`,
      ),
    ].join('\n');
    writeMarkdown(settings.output, block, 'bench-dashboard', 'npm run bench:dashboard');
    console.log(block);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
