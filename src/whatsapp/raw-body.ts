import type { FastifyRequest } from 'fastify';
import type { Api } from '../http/types.js';

/**
 * Registers routes whose JSON body stays bytes: Meta signs the raw body, so it is checked before it is
 * parsed, and nothing unsigned is parsed at all.
 */
export function registerRawBodyRoutes(app: Api, routes: (plugin: Api) => void): void {
  void app.register((plugin: Api, _options, registered) => {
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, raw: Buffer, done) =>
      done(null, raw),
    );
    routes(plugin);
    registered();
  });
}

/** The bytes a raw-body route received (none when the request had no JSON body). */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}
