/** Runs the real `parley` CLI from tests. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from './server.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO_ROOT, 'bin/parley.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `parley` binary in a child process against the test server's database. Async on
 * purpose: a synchronous spawn would block the in-process server the CLI's output is checked against.
 */
export function runCli(server: TestServer, ...args: string[]): Promise<CliResult> {
  return run(server, process.execPath, [BIN, ...args]);
}

/**
 * Runs `parley` as a user does through npm: `npx parley …` or `npm exec parley …` (npm resolves the
 * project's own bin), so a test sees what npm passes on to the CLI and what it keeps for itself.
 */
export function runThroughNpm(server: TestServer, npm: 'npx' | 'npm exec', ...args: string[]): Promise<CliResult> {
  const [file, ...words] = npm.split(' ');
  // npm itself starts slowly on a busy machine: the bound is for a hang, not for speed.
  return run(server, file!, [...words, 'parley', ...args], 180_000);
}

function run(server: TestServer, file: string, args: string[], timeout = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: REPO_ROOT, env: server.env, timeout, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ code: 0, stdout, stderr });
        else if (typeof error.code === 'number') resolve({ code: error.code, stdout, stderr });
        // Killed by the timeout, or node could not be started.
        else
          reject(new Error(`parley ${args.join(' ')} did not run to completion: ${error.message}`, { cause: error }));
      },
    );
  });
}

/** Runs a command that must succeed and returns its parsed JSON output. */
export async function cliJson<T = unknown>(server: TestServer, ...args: string[]): Promise<T> {
  const result = await runCli(server, ...args);
  if (result.code !== 0) {
    throw new Error(`parley ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}

/** The lines a failing command wrote to stderr (the contract: exactly one). */
export function stderrLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line !== '');
}
