import fs from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestServer } from './server.js';

/** Debian's chromium (installed by .ci/run); never a downloaded browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(import.meta.dirname, '..', 'test-artifacts', 'screenshots');

let browser: Promise<Browser> | undefined;
// Registered at import (file level): an `after` registered inside a test would run after that test.
after(async () => {
  if (browser) await (await browser).close();
});

/** One headless Chromium per test file, closed after its tests. */
export function openBrowser(): Promise<Browser> {
  if (!browser) {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
    browser = chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }
  return browser;
}

/**
 * A fresh browser context (its own cookies) on the test server, trusting its self-signed
 * certificate. `bypassCSP` only for injecting axe-core, whose script the page's CSP would refuse.
 */
export async function newPage(
  server: TestServer,
  options: { width?: number; height?: number; bypassCSP?: boolean; locale?: string } = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await (
    await openBrowser()
  ).newContext({
    baseURL: server.baseUrl,
    ignoreHTTPSErrors: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    bypassCSP: options.bypassCSP ?? false,
    // The browser's language (navigator.languages), which the dashboard follows until a person chooses.
    locale: options.locale ?? 'en-US',
  });
  const page = await context.newPage();
  retryNavigationGivenUp(page);
  return { page, context };
}

/**
 * On a loaded two-core machine Chromium has given up a navigation started while the signed-in page's
 * own requests were still being cancelled (net::ERR_TOO_MANY_RETRIES, before any byte of the new page);
 * such a navigation is started once more. Anything else a navigation meets still fails the test.
 */
function retryNavigationGivenUp(page: Page): void {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    try {
      return await goto(url, options);
    } catch (error) {
      if (!String(error).includes('net::ERR_TOO_MANY_RETRIES')) throw error;
      return goto(url, options);
    }
  };
}

/** Saves a full-page screenshot as a test artifact (test-artifacts/screenshots/NAME.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A workspace and its owner, created the way `parley setup` does; returns the credentials. */
/** The id of the workspace's contact with this number (a webhook made it): the path of their conversation. */
export async function contactIdOf(server: TestServer, workspaceId: string, phone: string): Promise<string> {
  const contact = await server.app.services.deps.db
    .selectFrom('contacts')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('phone', '=', phone)
    .executeTakeFirstOrThrow();
  return contact.id;
}

export async function createOwner(server: TestServer, name = 'Acme Support') {
  const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct horse battery';
  const { workspace, user } = await server.app.services.workspaces.setup({ name, email, password });
  return { email, password, workspaceId: workspace.id, userId: user.id };
}

/** Logs in through the form (in whatever language it shows) and waits for the signed-in layout. */
export async function logIn(page: Page, credentials: { email: string; password: string }): Promise<void> {
  await page.goto('/');
  await page.locator('input[type="email"]').fill(credentials.email);
  await page.locator('input[type="password"]').fill(credentials.password);
  await page.locator('form button[type="submit"]').click();
  await page.locator('nav#nav').waitFor({ state: 'attached' });
}

/** axe-core's serious and critical findings on the current page (none is the bar). */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: path.join(import.meta.dirname, '..', 'node_modules', 'axe-core', 'axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** axe-core's findings of these rules, whatever their impact (e.g. `heading-order`, a moderate one). */
export async function accessibilityViolations(page: Page, rules: string[]): Promise<string[]> {
  await page.addScriptTag({ path: path.join(import.meta.dirname, '..', 'node_modules', 'axe-core', 'axe.min.js') });
  const violations = await page.evaluate(async (only) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    return (await axe.run(document, { runOnly: { type: 'rule', values: only } })).violations;
  }, rules);
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}
