/** Host programs the deployment tests (container image, reverse proxy) drive, and what to do when one is missing. */
import { execFile } from 'node:child_process';
import net from 'node:net';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a host program to completion (async: a synchronous spawn would block this process's servers and
 * clients). Resolves with its exit code whatever it is; rejects only when it could not be run or timed out.
 */
export function runCommand(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { env: options.env ?? process.env, cwd: options.cwd, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ code: 0, stdout, stderr });
        else if (typeof error.code === 'number') resolve({ code: error.code, stdout, stderr });
        else reject(new Error(`${file} ${args.join(' ')} did not run to completion: ${error.message}\n${stderr}`));
      },
    );
  });
}

/** Runs a host program that must succeed; returns its standard output. */
export async function mustRun(file: string, args: string[], options: Parameters<typeof runCommand>[2] = {}) {
  const result = await runCommand(file, args, options);
  if (result.code !== 0) {
    throw new Error(`${file} ${args.join(' ')} exited ${result.code}:\n${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

/**
 * Whether the deployment tests should be skipped on this machine: only outside CI, and only when asked
 * (PARLEY_SKIP_CONTAINER_TESTS=1). A missing program is otherwise a failure that says what to install,
 * never a silent pass.
 */
export async function deploymentTestSkip(programs: string[], install: string): Promise<string | false> {
  if (!process.env.CI && process.env.PARLEY_SKIP_CONTAINER_TESTS === '1') return 'PARLEY_SKIP_CONTAINER_TESTS=1';
  const missing: string[] = [];
  for (const program of programs) {
    const found = await runCommand('sh', ['-c', `command -v ${program}`]);
    if (found.code !== 0) missing.push(program);
  }
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(', ')} not found: ${install}, or set PARLEY_SKIP_CONTAINER_TESTS=1 to skip this test outside CI`,
    );
  }
  return false;
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
