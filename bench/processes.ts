import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';

const run = promisify(execFile);
/** USER_HZ: Linux reports process CPU times in 1/100 s on every common architecture. */
const CLOCK_TICKS_PER_SECOND = 100;
const ROOT = new URL('..', import.meta.url).pathname;

/** Runs the real `parley` CLI and returns the JSON it prints. */
export async function parleyCli(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['bin/parley.js', ...args], { cwd: ROOT, env });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Connects a workspace to a WhatsApp Cloud number (the benchmark's Graph stand-in) with `parley channel set`. */
export async function setCloudChannel(
  env: NodeJS.ProcessEnv,
  workspaceId: string,
  number: { phoneNumberId: string; wabaId: string; messagesPerSecond: number },
): Promise<void> {
  const { phoneNumberId, wabaId, messagesPerSecond } = number;
  await parleyCli(
    ['channel', 'set', '--workspace', workspaceId, '--provider', 'whatsapp-cloud', '--phone-number-id', phoneNumberId]
      .concat(['--waba-id', wabaId, '--access-token', 'bench-token'])
      .concat(['--messages-per-second', String(messagesPerSecond)]),
    env,
  );
}

/** The certificate Parley generates in DATA_DIR/tls on first start, once it exists (for waitUntilReady). */
export function generatedCertificate(dataDir: string): string | null {
  const file = path.join(dataDir, 'tls', 'cert.pem');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/** A throwaway PostgreSQL cluster from scripts/postgres-temp.sh, durable as a deployment's (fsync on). */
export async function startPostgres(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = `${ROOT}scripts/postgres-temp.sh`;
  const { stdout } = await run('bash', [script, 'start', String(port), 'durable']);
  const [dir, url] = stdout.trim().split(/\s+/);
  if (!dir || !url) throw new Error(`postgres-temp.sh printed "${stdout}"`);
  return { url, stop: async () => void (await run('bash', [script, 'stop', dir])) };
}

/** A node child process (TypeScript through tsx, JavaScript as it is) whose memory can be read from /proc. */
export class NodeProcess {
  private readonly child: ChildProcess;
  private output = '';
  private exited = false;

  constructor(
    readonly name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    nodeOptions: string[] = [],
  ) {
    const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
    this.child = spawn(process.execPath, [...nodeOptions, ...loader, script], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Kept for the error message if the process dies; only the tail matters. BENCH_LOG_DIR keeps all of it,
    // written asynchronously: the benchmark's own event loop drives the load (bench:loop's Meta stand-in).
    const logDir = process.env.BENCH_LOG_DIR;
    const log = logDir ? fs.createWriteStream(path.join(logDir, `${name}-${this.child.pid}.log`)) : null;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
      log?.write(chunk);
    };
    this.child.on('close', () => log?.end());
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.child.on('exit', () => (this.exited = true));
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.name} did not start`);
    return this.child.pid;
  }

  /** Polls `url` over HTTPS, trusting only `ca`, until it answers 200. */
  async waitUntilReady(url: string, ca: () => string | null, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`${this.name} exited during start:\n${this.output}`);
      const cert = ca();
      if (cert && (await answers200(url, cert))) return;
      await sleep(200);
    }
    throw new Error(`${this.name} did not answer ${url} within ${timeoutMs} ms:\n${this.output}`);
  }

  /** The last few KiB the process printed: what to show when a request to it fails. */
  get recentOutput(): string {
    return this.output;
  }

  /** Peak resident set size so far (VmHWM), in MiB. */
  peakRssMiB(): number {
    return procStatusKiB(this.pid, 'VmHWM') / 1024;
  }

  /** User + system CPU time used so far, in seconds (from /proc/<pid>/stat, in clock ticks). */
  cpuSeconds(): number {
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of stat.
    const fields = fs.readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  }

  rssMiB(): number {
    return procStatusKiB(this.pid, 'VmRSS') / 1024;
  }

  /** SIGTERM, then waits for the exit (Parley finishes in-flight requests first). */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exit;
  }
}

function procStatusKiB(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

async function answers200(url: string, ca: string): Promise<boolean> {
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const response = await request(url, { dispatcher });
    await response.body.dump();
    return response.statusCode === 200;
  } catch {
    return false;
  } finally {
    await dispatcher.close();
  }
}

/** One request through an HTTPS client that trusts only the given certificate. */
export async function httpsJson(
  url: string,
  ca: string,
  options: { method: 'GET' | 'POST'; token: string; body?: unknown },
): Promise<{ status: number; body: unknown }> {
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const response = await request(url, {
      dispatcher,
      method: options.method,
      headers: {
        authorization: `Bearer ${options.token}`,
        ...(options.body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    return { status: response.statusCode, body: await response.body.json() };
  } finally {
    await dispatcher.close();
  }
}
