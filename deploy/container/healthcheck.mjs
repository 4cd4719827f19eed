// The image's HEALTHCHECK: GET /healthz on the container's own listener, exit 0 when it answers 200.
// Over HTTPS it accepts any certificate: it calls itself on loopback, where the certificate is usually
// Parley's generated self-signed one. Behind TRUST_PROXY the listener speaks plain HTTP.
import http from 'node:http';
import https from 'node:https';
import process from 'node:process';

const TIMEOUT_MS = 4000;
const plain = ['1', 'true', 'yes', 'on'].includes((process.env.TRUST_PROXY ?? '').trim().toLowerCase());
const request = (plain ? http : https).get(
  {
    host: '127.0.0.1',
    port: process.env.PORT || 8443,
    path: '/healthz',
    rejectUnauthorized: false,
    timeout: TIMEOUT_MS,
  },
  (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('no answer')));
request.on('error', (error) => {
  process.stderr.write(`healthz: ${error.message}\n`);
  process.exit(1);
});
