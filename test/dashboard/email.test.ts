import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { startSmtpStand } from '../smtp-stand.js';
import { ENGINE, startServer } from '../server.js';

const smtp = await startSmtpStand();
const PUBLIC_BASE_URL = 'https://parley.example.test';
const server = await startServer({
  SMTP_URL: `smtp://${smtp.user}:${smtp.password}@127.0.0.1:${smtp.port}`,
  SMTP_FROM: 'Parley <parley@example.test>',
  PUBLIC_BASE_URL,
});

describe(`dashboard: email (${ENGINE})`, () => {
  test('Forgot your password? emails a link that opens the reset page and sets a new password (axe clean)', async () => {
    const owner = await createOwner(server, 'Forgetful Florist');
    const { page } = await newPage(server, { bypassCSP: true });
    await page.goto('/');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await page.getByText(`If ${owner.email} has a Parley account, a reset link is on its way`).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await server.app.services.scheduler.runDue();
    const mail = smtp.received.find((m) => m.subject === 'Reset your Parley password');
    const link = new URL(new RegExp(`${PUBLIC_BASE_URL}/\\S+`).exec(mail?.text ?? '')![0]);
    await page.goto(link.pathname + link.hash);
    await page.getByLabel('New password', { exact: true }).fill('a fresh florist password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Your new password is set').waitFor();
    await logIn(page, { email: owner.email, password: 'a fresh florist password' });
  });
});
