import type { App } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createAppWhenDatabaseAnswers, DatabaseWaitError } from './database-wait.js';
import { standardOutput, startLogger } from './http/log-redaction.js';

/**
 * Process entry: configuration → database (waited for) → HTTPS server, with a graceful stop on
 * SIGINT/SIGTERM. The signal handlers come first: as PID 1 of a container, node drops a stop signal
 * until a handler of ours is set (its own start-up handler re-raises it, which PID 1 ignores), so a stop
 * during the seconds of loading and starting would wait for the runtime's SIGKILL. A stop before the server is up (loading, waiting for the database, migrating) exits at once:
 * nothing has been accepted yet, and migrations run in a transaction (an interrupted one is rolled back
 * and runs again at the next start). The application itself is loaded by database-wait.ts, after this.
 */
async function main(): Promise<void> {
  let app: App | null = null;
  let stopSignal: string | null = null;
  const stop = (signal: string) => {
    if (stopSignal) return;
    stopSignal = signal;
    if (app) return void shutDown(app, signal);
    console.error(`${signal} while starting: exiting before serving`);
    process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const config = loadConfig();
  // A write to a full disk or a closed pipe fails the write, not the process (the log has its own guard).
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const logTarget = { level: config.logLevel, stream: standardOutput() };
  // The first line: from here a stop is heeded (an orchestrator's or a test's cue).
  startLogger(logTarget).info({ node: process.version }, 'starting');
  app = await createAppWhenDatabaseAnswers(config, logTarget);
  const log = app.server.log;
  if (app.tls) log.info({ cert_file: app.tls.certFile, generated: app.tls.generated }, 'TLS certificate');
  await app.server.listen({ host: config.host, port: config.port });
  // A first run: say where to go, since the dashboard's set-up and `parley setup` each make a workspace.
  if (await app.services.accounts.needsSetup()) {
    log.info(
      `No workspace yet: open ${config.publicBaseUrl} to set up (or run \`parley setup\` with this server's DATA_DIR / DATABASE_URL; one or the other, not both)`,
    );
  }
  log.info({ url: config.publicBaseUrl, database: app.services.deps.dialect }, 'Parley is serving');
}

/** Stops accepting connections, lets in-flight requests and work finish, then exits (0, or 1 on an error). */
async function shutDown(app: App, signal: string): Promise<void> {
  const log = app.server.log;
  log.info({ signal }, 'stopping: finishing in-flight requests');
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    log.error({ err: error }, 'error while stopping');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseWaitError ? error.message : error);
  process.exit(1);
});
