import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { buildServer } from './http/server.js';
import { loadTls, type TlsMaterial } from './http/tls.js';
import type { Api } from './http/types.js';
import { createServices, type Services } from './services.js';
import { systemClock, type Clock } from './shared/clock.js';
import { createIdGenerator } from './shared/ids.js';

export interface App {
  server: Api;
  services: Services;
  tls: TlsMaterial | null;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens the services on the configured database (migrated to the latest schema). */
export async function openServices(config: Config, clock: Clock = systemClock): Promise<Services> {
  const { db, dialect } = openDatabase(config);
  await migrateToLatest(db, dialect);
  return createServices({ db, dialect, clock, newId: createIdGenerator(clock) });
}

/** Builds the whole application: database, services and the HTTPS server (not yet listening). */
export async function createApp(
  config: Config,
  options: { clock?: Clock; logger?: FastifyServerOptions['logger'] } = {},
): Promise<App> {
  const services = await openServices(config, options.clock);
  const tls = config.trustProxy ? null : await loadTls(config);
  const server = await buildServer({ config, services, tls, logger: options.logger ?? { level: config.logLevel } });
  return {
    server,
    services,
    tls,
    async close() {
      await server.close();
      await services.deps.db.destroy();
    },
  };
}
