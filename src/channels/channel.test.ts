import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { cliJson, runCli, stderrLines } from '../../test/cli.js';
import { ownerSession } from '../../test/dashboard-session.js';
import type { StandInNumber } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';

const { graph, server, postWebhook } = await startWhatsappServer();
const { services } = server.app;

interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { field: string; message: string; code?: string; params?: Record<string, string | number> }[];
  retryable?: boolean;
}

/** A workspace's owner, logged in to the dashboard over HTTP. */
async function owner(name = `Shop ${randomUUID().slice(0, 8)}`) {
  const dashboard = await ownerSession(server, name);
  const saveChannel = (body: object) => dashboard.send<Problem>('PUT', '/api/dashboard/channel', body);
  const connect = (number: Pick<StandInNumber, 'phoneNumberId' | 'wabaId' | 'accessToken'>) =>
    saveChannel({
      provider: 'whatsapp-cloud',
      phone_number_id: number.phoneNumberId,
      waba_id: number.wabaId,
      access_token: number.accessToken,
    });
  return { workspaceId: dashboard.workspaceId, name, saveChannel, connect };
}

const providerOf = async (workspaceId: string) => (await services.channels.get({ workspaceId })).provider;
const graphRequestsDuring = async (action: () => Promise<unknown>) => {
  const before = graph.requests.length;
  await action();
  return graph.requests.slice(before);
};

describe(`channel: a workspace connects only a number Meta confirms is its own (${ENGINE})`, () => {
  test('dashboard › another business’s number, with the attacker’s own token and WABA, is refused: its messages stay away', async () => {
    const victim = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const attacker = await owner();
    const own = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });

    for (const wabaId of [own.wabaId, victim.wabaId]) {
      const refused = await attacker.connect({ ...victim, wabaId, accessToken: own.accessToken });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 'validation_failed');
      assert.equal(refused.body.errors?.[0]?.field, 'phone_number_id');
      assert.match(refused.body.errors?.[0]?.message ?? '', /^This access token cannot read this phone number id/);
    }
    assert.equal(await providerOf(attacker.workspaceId), 'simulator', 'nothing is saved');

    const wamid = `wamid.${randomUUID()}`;
    const delivered = await postWebhook(
      inboundTextWebhook({ phoneNumberId: victim.phoneNumberId, from: '14155550190', wamid, text: 'my card number' }),
    );
    assert.equal(delivered.status, 200, delivered.text);
    const stored = await services.deps.db
      .selectFrom('messages')
      .select('workspace_id')
      .where('provider_message_id', '=', wamid)
      .execute();
    assert.deepEqual(stored, [], 'the customer’s message reaches no workspace');
  });

  test('dashboard › asks Meta for the number and the WABA’s numbers with the given token, then saves', async () => {
    const shop = await owner();
    const number = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    let saved: Awaited<ReturnType<typeof shop.connect>> | undefined;
    const asked = await graphRequestsDuring(async () => (saved = await shop.connect(number)));
    assert.equal(saved?.status, 200, saved?.text);
    assert.deepEqual(
      asked.map((request) => [request.method, request.path, request.headers.authorization]),
      [
        [
          'GET',
          `/${API_VERSION}/${number.phoneNumberId}?fields=display_phone_number,verified_name,quality_rating`,
          `Bearer ${number.accessToken}`,
        ],
        ['GET', `/${API_VERSION}/${number.wabaId}/phone_numbers`, `Bearer ${number.accessToken}`],
      ],
    );
    assert.equal(await services.channels.savedAccessToken(shop.workspaceId), number.accessToken);

    // A later change with the token left blank is checked with the saved token.
    const slower = await shop.saveChannel({
      provider: 'whatsapp-cloud',
      phone_number_id: number.phoneNumberId,
      waba_id: number.wabaId,
      messages_per_second: 20,
    });
    assert.equal(slower.status, 200, slower.text);
  });

  test('dashboard › a token Meta does not accept, or a number that is not the WABA’s, names the field to fix', async () => {
    const shop = await owner();
    const number = graph.addPhoneNumber();

    const badToken = await shop.connect({ ...number, accessToken: 'EAAG-mistyped' });
    assert.equal(badToken.status, 400, badToken.text);
    assert.deepEqual(badToken.body.errors, [
      {
        field: 'access_token',
        message:
          'Meta does not accept this access token. Meta says: Invalid OAuth access token - Cannot parse access token',
        code: 'channels.token_not_accepted_saying',
        params: { meta_message: 'Invalid OAuth access token - Cannot parse access token' },
      },
    ]);

    const otherWaba = graph.addPhoneNumber(); // the same business (token), another WABA
    const mismatched = await shop.connect({ ...number, wabaId: otherWaba.wabaId });
    assert.equal(mismatched.status, 400, mismatched.text);
    assert.deepEqual(mismatched.body.errors, [
      {
        field: 'phone_number_id',
        message: "This phone number id is not one of the WhatsApp Business Account id's phone numbers.",
        code: 'channels.number_not_in_waba',
      },
    ]);
    assert.equal(await providerOf(shop.workspaceId), 'simulator', 'nothing is saved');
  });

  test('dashboard › a number connected elsewhere only "cannot be connected"; without control, the answer is the same as for any other number', async () => {
    const number = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const first = await owner('First Shop');
    assert.equal((await first.connect(number)).status, 200);

    // Someone who controls the number (its token and WABA) learns only that it cannot be connected.
    const second = await owner('Second Shop');
    const taken = await second.connect(number);
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.body.code, 'conflict');
    assert.equal(taken.body.detail, 'This phone number cannot be connected');
    assert.deepEqual(taken.body.errors, [
      {
        field: 'phone_number_id',
        message: 'This phone number id cannot be connected.',
        code: 'common.number_not_connectable',
      },
    ]);
    for (const secret of [first.workspaceId, first.name, 'another workspace']) {
      assert.ok(!taken.text.includes(secret), `the answer does not mention ${secret}`);
    }
    assert.equal(await providerOf(second.workspaceId), 'simulator');

    // Without control, a taken number and a free one get the same answer.
    const outsider = await owner();
    const own = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const free = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const answer = async (target: StandInNumber) => {
      const response = await outsider.connect({ ...own, phoneNumberId: target.phoneNumberId });
      const { status, code, detail, errors } = response.body;
      return JSON.stringify({ status, code, detail, errors }).replaceAll(target.phoneNumberId, '<id>');
    };
    assert.equal(await answer(number), await answer(free));
    assert.match(await answer(number), /^\{"status":400,"code":"validation_failed"/);
  });

  test('dashboard › two workspaces connecting one number at once: one gets it, the other a 409, never a 500', async () => {
    const number = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const shops = await Promise.all([owner(), owner(), owner()]);
    const answers = await Promise.all(shops.map((shop) => shop.connect(number)));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409], answers.map((a) => a.text).join());
    const owners = await services.deps.db
      .selectFrom('channels')
      .select('workspace_id')
      .where('phone_number_id', '=', number.phoneNumberId)
      .execute();
    assert.equal(owners.length, 1);
  });

  test('dashboard › Meta unreachable: a 409 saying to retry, nothing saved; the simulator needs no Meta', async () => {
    const shop = await owner();
    const number = graph.addPhoneNumber();
    graph.failNext({
      status: 503,
      body: { error: { message: 'Service unavailable', type: 'OAuthException', code: 2 } },
    });
    const unavailable = await shop.connect(number);
    assert.equal(unavailable.status, 409, unavailable.text);
    assert.equal(unavailable.body.retryable, true);
    assert.match(unavailable.body.detail, /Meta could not be asked/);
    assert.equal(await providerOf(shop.workspaceId), 'simulator');

    const asked = await graphRequestsDuring(() => shop.saveChannel({ provider: 'simulator' }));
    assert.deepEqual(asked, []);
  });

  test('cli › channel set is refused for a number the token cannot read, and saved once Meta confirms it', async () => {
    const shop = await owner();
    const number = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const stranger = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const channelSet = (accessToken: string) => [
      ...['channel', 'set', '--workspace', shop.workspaceId, '--provider', 'whatsapp-cloud'],
      ...['--phone-number-id', number.phoneNumberId, '--waba-id', number.wabaId, '--access-token', accessToken],
    ];

    const refused = await runCli(server, ...channelSet(stranger.accessToken));
    assert.notEqual(refused.code, 0);
    assert.match(
      stderrLines(refused).join('\n'),
      /phone_number_id: This access token cannot read this phone number id/,
    );
    assert.equal(await providerOf(shop.workspaceId), 'simulator');

    const saved = await cliJson<{ phone_number_id: string }>(server, ...channelSet(number.accessToken));
    assert.equal(saved.phone_number_id, number.phoneNumberId);
  });
});
