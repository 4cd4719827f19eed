import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createOwner } from '../../test/browser.js';
import { joinedTeammate, logInOverHttp } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();

async function ownerSession() {
  return logInOverHttp(server, await createOwner(server, `Rates ${randomInt(1e9)}`));
}

/** The workspace's own prices per billable message (Reports → Message rates), overriding Meta's rate card. */
describe(`message rates (${ENGINE})`, () => {
  test('kept per workspace; a currency that is not one, a negative rate and a member are refused', async () => {
    const session = await ownerSession();
    // Four letters break the schema's length (no code: the dashboard words schema problems itself).
    const badRates: [object, string, string | undefined][] = [
      [{ currency: 'euro', rates: {} }, 'currency', undefined],
      [{ currency: 'XYZ', rates: {} }, 'currency', 'reports.currency_code'],
      [{ currency: 'EUR', rates: { marketing: -1 } }, 'rates/marketing', 'reports.rate_range'],
    ];
    for (const [body, field, code] of badRates) {
      const response = await session.send<{ errors: { field: string; code?: string }[] }>(
        'PUT',
        '/api/dashboard/reports/rates',
        body,
      );
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.errors[0]?.field, field);
      assert.equal(response.body.errors[0]?.code, code);
    }
    const mate = await joinedTeammate(server, session);
    const refused = await mate.send('PUT', '/api/dashboard/reports/rates', { currency: 'USD', rates: { service: 0 } });
    assert.equal(refused.status, 403);
    assert.deepEqual((await session.send('GET', '/api/dashboard/reports/rates')).body, { currency: 'USD', rates: {} });
    assert.equal((await server.http.send('GET', '/api/dashboard/reports/rates')).status, 401);

    const saved = await session.send('PUT', '/api/dashboard/reports/rates', {
      currency: 'GBP',
      rates: { marketing: 0.05 },
    });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual((await session.send('GET', '/api/dashboard/reports/rates')).body, {
      currency: 'GBP',
      rates: { marketing: 0.05 },
    });
    const other = await ownerSession();
    assert.deepEqual((await other.send('GET', '/api/dashboard/reports/rates')).body, { currency: 'USD', rates: {} });
  });
});
