import { ConfigError, loadConfig } from './config.js';
import { createAppWhenDatabaseAnswers, DatabaseWaitError } from './database-wait.js';
import { standardOutput } from './http/log-redaction.js';

/**
 * Process entry: configuration → database (waited for) → HTTPS server, with a graceful stop on
 * SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // A write to a full disk or a closed pipe fails the write, not the process (the log has its own guard).
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const app = await createAppWhenDatabaseAnswers(config, { level: config.logLevel, stream: standardOutput() });
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

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing in-flight requests');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseWaitError ? error.message : error);
  process.exit(1);
});
