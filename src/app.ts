import os from 'node:os';
import type { Config } from './config.js';
import type { LogTarget } from './http/log-redaction.js';
import { buildServer } from './server.js';
import { loadTls, type TlsMaterial } from './http/tls.js';
import type { Api } from './http/types.js';
import { openServices, type Services } from './services.js';
import type { Clock } from './shared/clock.js';

/** One SQLite read worker a core (up to four): more would only queue for the same cores. */
const SQLITE_READ_WORKERS = Math.min(4, Math.max(2, os.availableParallelism()));

export interface App {
  server: Api;
  services: Services;
  tls: TlsMaterial | null;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/** Builds the whole application: database, services and the HTTPS server (not yet listening). */
export async function createApp(
  config: Config,
  options: { clock?: Clock; logger?: LogTarget; checkResponses?: boolean } = {},
): Promise<App> {
  const services = await openServices(config, options.clock, {
    backgroundCheckpoints: true,
    readWorkers: SQLITE_READ_WORKERS,
  });
  const tls = config.trustProxy ? null : await loadTls(config);
  const logger = options.logger ?? { level: config.logLevel };
  const server = await buildServer({ config, services, tls, logger, checkResponses: options.checkResponses });
  services.deps.health.attach(server.log);
  services.simulator.start(server.log);
  services.outbox.start(server.log);
  services.email.start(server.log);
  services.scheduler.start(server.log);
  services.webhookWorker.start(server.log);
  return {
    server,
    services,
    tls,
    async close() {
      await server.close();
      await services.scheduler.stop();
      await services.outbox.stop();
      services.simulator.stop();
      await services.webhookWorker.stop();
      await services.inboxEvents.close();
      await services.whatsapp.close();
      await services.flowWebhooks.close();
      await services.flowsEndpoint.close();
      await services.mediaStore.close();
      await services.aiModels.close();
      await services.deps.db.destroy();
    },
  };
}
