import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../http/types.js';

const DIST = path.join(import.meta.dirname, '..', '..', 'web', 'dist');
/** The dashboard's own paths (the front end routes them); everything else stays the API's. */
const SECTIONS = [
  'inbox',
  'contacts',
  'templates',
  'sequences',
  'flows',
  'whatsapp-flows',
  'knowledge',
  'campaigns',
  'simulator',
  'reports',
  'settings',
  'invite',
  'reset-password',
];
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** Everything comes from Parley itself: no CDN, no inline script, no framing by other sites. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: https:; media-src 'self' https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

interface Asset {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
  etag: string;
}

/** The built files (scripts/build-web.ts), read once: three small files, served from memory. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!fs.existsSync(DIST)) return assets;
  for (const name of fs.readdirSync(DIST)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = fs.readFileSync(path.join(DIST, name));
    const gzipPath = path.join(DIST, `${name}.gz`);
    const gzipped = fs.existsSync(gzipPath) ? fs.readFileSync(gzipPath) : null;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { body, gzipped, type, etag });
  }
  return assets;
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  void reply.headers({
    'content-type': asset.type,
    etag: asset.etag,
    'cache-control': 'no-cache',
    vary: 'accept-encoding',
  });
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (asset.gzipped && acceptsGzip) return reply.header('content-encoding', 'gzip').send(asset.gzipped);
  return reply.send(asset.body);
}

/** Serves the dashboard at `/`: index.html for its paths, the bundle under /assets/. */
export function registerDashboardStatic(app: Api): void {
  const assets = loadAssets();
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = assets.get('index.html');
    void reply.headers(PAGE_HEADERS);
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard has not been built: run `npm run build:web` (npm ci and npm start do it).');
    }
    return send(request, reply, index);
  };
  const options = { config: { access: 'public' as const }, schema: { hide: true } };
  app.get('/', options, page);
  for (const section of SECTIONS) {
    app.get(`/${section}`, options, page);
    app.get(`/${section}/*`, options, page);
  }
  app.get<{ Params: { file: string } }>('/assets/:file', options, async (request, reply) => {
    const asset = request.params.file !== 'index.html' && assets.get(request.params.file);
    if (!asset) return reply.callNotFound();
    return send(request, reply, asset);
  });
}
