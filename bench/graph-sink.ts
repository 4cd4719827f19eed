import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The benchmark's Graph API: answers `POST /{version}/{phone-number-id}/messages` with Meta's
 * success shape as fast as it can and counts what arrives (per second), keeping no bodies, so
 * 100,000 sends cost it little memory. It also describes its one business number, so
 * `parley channel set` can confirm it. The test suite's stand-in (test/graph-stand-in.ts) is the
 * one that checks payloads and tokens.
 */
export interface GraphSink {
  url: string;
  received(): number;
  /** Arrival times (ms, performance.now) of every accepted message. */
  arrivals: number[];
  close(): Promise<void>;
}

/**
 * The Graph API's description of the benchmark's one number, for `GET /{version}/{path}` (`parley channel
 * set` confirms the number with it): the number itself, or the WABA's numbers; null for any other path.
 */
export function numberLookup(number: { phoneNumberId: string; wabaId: string }, path: string): string | null {
  const described = JSON.stringify({
    id: number.phoneNumberId,
    display_phone_number: '+1 555-010-0000',
    verified_name: 'Parley Bench',
    quality_rating: 'GREEN',
  });
  if (path === number.phoneNumberId) return described;
  return path === `${number.wabaId}/phone_numbers` ? `{"data":[${described}]}` : null;
}

export async function startGraphSink(number: { phoneNumberId: string; wabaId: string }): Promise<GraphSink> {
  const arrivals: number[] = [];
  let sequence = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://sink').pathname.split('/').slice(2).join('/');
      const lookup = request.method === 'GET' ? numberLookup(number, path) : null;
      if (lookup !== null) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(lookup);
        return;
      }
      if (request.method !== 'POST' || !/\/messages$/.test(request.url ?? '')) {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":100}}');
        return;
      }
      arrivals.push(performance.now());
      const wamid = `wamid.BENCH${(sequence++).toString(36)}`;
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"messaging_product":"whatsapp","contacts":[],"messages":[{"id":"${wamid}"}]}`);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => arrivals.length,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
