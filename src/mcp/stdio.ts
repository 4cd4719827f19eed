import type { Config } from '../config.js';
import { createMcpServer } from './mcp-server.js';
import { inProcessRestClient } from './rest-client.js';
import { AnsweringStdioTransport } from './stdio-transport.js';
import { toolsOf } from './tools.js';

/**
 * `parley mcp`: the same tools over stdin/stdout for a local agent. The whole application runs
 * in-process without listening (stdout is the protocol, so logs go to stderr), including the
 * outbox and scheduler, so a message sent from here is delivered even when no server runs.
 * Returns when the client has closed stdin and had its answers, or the process is told to stop.
 */
export async function serveStdio(config: Config, token: string): Promise<void> {
  const { createApp } = await import('../app.js');
  const app = await createApp(config, { logger: { level: config.logLevel, stream: process.stderr } });
  try {
    // Fails before serving when the token is unknown or revoked, rather than on every tool call.
    await app.services.tokens.authenticate(token);
    await app.server.ready();
    // A long-lived session: the role is read at each tools/list, so a changed role shows at once.
    const callerNow = () => app.services.tokens.authenticate(token);
    const server = createMcpServer(toolsOf(app.server), inProcessRestClient(app.server, token), callerNow);
    const transport = new AnsweringStdioTransport();
    const stopped = untilStopped();
    await server.connect(transport);
    if ((await stopped) === 'end') await transport.answered();
    await server.close();
  } finally {
    await app.close();
  }
}

/** Resolves when stdin ends or on SIGINT/SIGTERM (then removes its listeners, so a second signal stops at once). */
function untilStopped(): Promise<'end' | 'signal'> {
  return new Promise((resolve) => {
    const stop = (reason: 'end' | 'signal') => () => {
      process.stdin.off('end', onEnd);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(reason);
    };
    const onEnd = stop('end');
    const onSignal = stop('signal');
    process.stdin.once('end', onEnd);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
