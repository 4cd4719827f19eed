/** Runs the real Parley server as a child process, as an operator runs it, to kill and restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import { Agent } from 'undici';
import { REPO_ROOT } from './cli.js';
import { httpClient, type HttpClient } from './server.js';

/** One JSON log line of the child (pino's fields, plus whatever the line carries). */
export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

export interface ParleyProcess {
  /** The label used in failure messages. */
  name: string;
  pid: number;
  baseUrl: string;
  /** An HTTPS client for this process (trusting the certificate it serves). */
  http: HttpClient;
  /** Its JSON log lines so far (stdout), in order. */
  logs: LogLine[];
  /** Null while it runs; once it has ended, its exit code (or signal name). */
  exit(): number | string | null;
  /** SIGKILL: no shutdown of any kind, as a crash or an OOM kill; resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Stands ready without serving: Parley's code is loaded, nothing opened or started yet. */
export interface StandbyProcess {
  /** Runs `src/main.ts` (what `npm start` runs) and resolves once it serves. */
  start(): Promise<ParleyProcess>;
  /** Its log lines so far, including those written before it serves. */
  logs: LogLine[];
  kill(): Promise<void>;
}

const STARTUP_DEADLINE_MS = 60_000;
/**
 * The child's program: load Parley's modules (seconds of CPU through tsx), wait for a line on
 * stdin, then run the server's entry point. The child is the server itself, so a signal reaches it.
 */
const PROGRAM = [
  "await import('./src/app.ts');",
  "await new Promise((go) => process.stdin.once('data', go));",
  "await import('./src/main.ts');",
].join('\n');
const live = new Set<ChildProcess>();
// Whatever ends the test process (a failure, a timeout, Ctrl-C) ends its servers too: a stray
// server would go on sending messages.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Starts a Parley server in a child process with `env` (on a random port, logging at info) and
 * resolves once it serves. `ca` is the certificate it will serve (the test server's, generated
 * in the shared DATA_DIR). Killed after the calling test (or file) in any case.
 */
export function startParleyProcess(name: string, env: NodeJS.ProcessEnv, ca: string | Buffer): Promise<ParleyProcess> {
  return standbyParleyProcess(name, env, ca).start();
}

/**
 * A child process that loads Parley's code now and starts the server when told: a restart after a
 * kill then takes what opening the database and starting the workers take, not module loading.
 */
export function standbyParleyProcess(name: string, env: NodeJS.ProcessEnv, ca: string | Buffer): StandbyProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', PROGRAM], {
    cwd: REPO_ROOT,
    env: { ...env, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve()); // could not be started at all
  });
  void exited.then(() => live.delete(child));
  child.stdin.on('error', () => undefined); // a write to a process that has died
  const logs: LogLine[] = [];
  const stderr: string[] = [];
  let onLine: (line: LogLine) => void = () => undefined;
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines.map(parseLine)) {
      logs.push(line);
      onLine(line);
    }
  });
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  after(kill);
  const tail = () => `\n${[...logs.slice(-10).map((line) => JSON.stringify(line)), ...stderr].join('\n')}`;

  async function start(): Promise<ParleyProcess> {
    const serving = new Promise<string>((resolve, reject) => {
      let url: string | undefined;
      onLine = (line) => {
        url ??= /^Server listening at (https?:\/\/\S+)$/.exec(line.msg ?? '')?.[1];
        if (line.msg === 'Parley is serving' && url) resolve(url);
      };
      void exited.then(() => reject(new Error(`${name} exited (${child.exitCode}) before serving${tail()}`)));
      const deadline = () => reject(new Error(`${name} did not serve within ${STARTUP_DEADLINE_MS} ms${tail()}`));
      setTimeout(deadline, STARTUP_DEADLINE_MS).unref();
    });
    child.stdin.write('go\n');
    const baseUrl = await serving.catch(async (error: unknown) => {
      await kill();
      throw error;
    });
    const agent = new Agent({ connect: { ca } });
    after(() => agent.close());
    const exit = () => child.exitCode ?? child.signalCode;
    return { name, pid: child.pid!, baseUrl, http: httpClient(baseUrl, agent), logs, exit, kill };
  }

  return { start, logs, kill };
}

function parseLine(line: string): LogLine {
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return { level: 0, msg: line };
  }
}
