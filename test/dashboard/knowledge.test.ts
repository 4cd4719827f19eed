import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, ownerSession } from '../dashboard-session.js';
import { ownerApi } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

const CARE_GUIDE = '# Care\n\nChange the water every two days.\n\n## Roses\n\nTrim the stems at an angle.\n';

async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `${what} is accessible`);
}

describe(`dashboard: knowledge (${ENGINE})`, () => {
  test('Knowledge: Q&A pairs and documents added, a file uploaded, quick replies switched on, a question tried, a pair changed and a document deleted', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    await api.action('create-quick-reply', { shortcut: 'hours', body: 'We are open from 9 to 18.' });

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor();
    await page.getByText('No sources yet: add a question and its answer, or a document.').waitFor();

    const qa = page.getByRole('form', { name: 'Add a question and its answer' });
    await qa.getByLabel('Question').fill('Do you deliver on Sundays?');
    await qa.getByLabel('Answer').fill('Yes, between 9 and 13 in the city centre.');
    await qa.getByRole('button', { name: 'Add Q&A' }).click();
    const sources = page.getByRole('table', { name: 'Knowledge sources' });
    await sources
      .getByRole('row', { name: /Do you deliver on Sundays\?/ })
      .getByText('1 chunk')
      .waitFor();

    const document = page.getByRole('form', { name: 'Add a document' });
    await document.getByLabel('Title').fill('Returns');
    await document.getByLabel('Text').fill('# Returns\n\nWithin 30 days.\n\n## Refunds\n\nOn your card in five days.');
    await document.getByRole('button', { name: 'Add document' }).click();
    await sources
      .getByRole('row', { name: /Returns/ })
      .getByText('2 chunks')
      .waitFor();

    // A file: its title from its name; one past the limit is refused before it is sent.
    await document.getByLabel('Or upload a file').setInputFiles({
      name: 'big.md',
      mimeType: 'text/markdown',
      buffer: Buffer.alloc(1024 * 1024 + 1, 'a'),
    });
    await document.getByText('big.md is larger than 1 MB: split it into smaller documents.').waitFor();
    assert.equal(await document.getByRole('button', { name: 'Add document' }).isDisabled(), true);
    await document.getByLabel('Or upload a file').setInputFiles({
      name: 'care-guide.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(CARE_GUIDE),
    });
    await document.getByRole('button', { name: 'Add document' }).click();
    const care = sources.getByRole('row', { name: /care-guide/ });
    await care.getByText('from care-guide.md').waitFor();
    await care.getByText('2 chunks').waitFor();

    await page.getByLabel('Quick replies', { exact: true }).check();
    await sources
      .getByRole('row', { name: /Quick replies/ })
      .getByText('1 chunk')
      .waitFor();
    await assertAccessible(page, 'the knowledge page');
    await screenshot(page, 'knowledge');

    // The chunks a question finds, with where they come from and their score.
    await page.getByRole('searchbox', { name: 'Question' }).fill('When are you open?');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const found = page.getByRole('list', { name: 'Chunks found' });
    await found.getByText('We are open from 9 to 18.').waitFor();
    await found.getByText('/hours').waitFor();
    await page.getByText('Found by their words.').waitFor();
    await found.getByText(/^Score 0\.0164 · words #1$/).waitFor();
    await page.getByRole('searchbox', { name: 'Question' }).fill('stems');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await found.getByText('Trim the stems at an angle.').waitFor();
    await found.getByText('· Care › Roses').waitFor();

    await care.getByRole('button', { name: 'Chunks of care-guide' }).click();
    const chunks = page.getByRole('region', { name: 'Chunks of care-guide' });
    await chunks.getByText('Care › Roses').waitFor();
    await chunks.getByRole('button', { name: 'Close' }).click();

    const sunday = sources.getByRole('row', { name: /Do you deliver on Sundays\?/ });
    await sunday.getByRole('button', { name: 'Edit Do you deliver on Sundays?' }).click();
    const change = page.getByRole('form', { name: 'Change the question and answer' });
    await change.getByLabel('Answer').fill('No, Monday to Saturday only.');
    await change.getByRole('button', { name: 'Save' }).click();
    await sunday.getByText('No, Monday to Saturday only.').waitFor();

    const returns = sources.getByRole('row', { name: /^Returns/ });
    await returns.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await returns.waitFor({ state: 'detached' });
    const listed = await api.action<{ title: string }[]>('list-knowledge-sources', {});
    assert.deepEqual(
      listed.body.map((s) => s.title),
      ['Do you deliver on Sundays?', 'care-guide', 'Quick replies'],
    );

    // On a phone, in Spanish.
    const { page: phone } = await newPage(server, { bypassCSP: true, width: 375, height: 800, locale: 'es-ES' });
    await logIn(phone, owner);
    await phone.goto('/knowledge');
    await phone.getByRole('heading', { name: 'Conocimiento', level: 1 }).waitFor();
    await phone.getByRole('table', { name: 'Fuentes de conocimiento' }).getByText('2 fragmentos').waitFor();
    await assertAccessible(phone, 'the knowledge page on a phone, in Spanish');
    await screenshot(phone, 'knowledge-phone-es');
  });

  test('Knowledge: an agent tries questions but neither adds, changes nor deletes', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    await api.action('create-knowledge-qa', { question: 'Gift wrapping?', answer: 'Free for every bouquet.' });
    const agent = await joinedTeammate(server, owner, 'agent');

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, agent);
    await page.goto('/knowledge');
    await page
      .getByText('You can read and search the knowledge; changing it needs the automation permission.')
      .waitFor();
    await page.getByRole('row', { name: /Gift wrapping\?/ }).waitFor();
    for (const name of ['Add Q&A', 'Add document', 'Edit Gift wrapping?', 'Delete']) {
      assert.equal(await page.getByRole('button', { name }).count(), 0, `no ${name}`);
    }
    assert.equal(await page.getByLabel('Quick replies', { exact: true }).count(), 0);
    await page.getByRole('searchbox', { name: 'Question' }).fill('wrapping');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('list', { name: 'Chunks found' }).getByText('Free for every bouquet.').waitFor();
    await assertAccessible(page, 'the knowledge page for an agent');
  });
});
