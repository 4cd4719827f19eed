import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import type { Services } from '../services.js';
import type { OpenOptions } from '../db/connection.js';
import type { Deps } from '../db/deps.js';
import { AppError } from '../shared/errors.js';
import { PARLEY_VERSION } from '../shared/version.js';
import { COMMANDS, type Command } from './commands.js';

/** Thrown for a command line that does not parse; exits with 2 and the usage. */
export class UsageError extends Error {}

function findCommand(argv: string[]): { command: Command; rest: string[] } {
  for (const length of [2, 1]) {
    const name = argv.slice(0, length).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(length) };
  }
  const words = argv.slice(0, 2).filter((word) => !word.startsWith('-'));
  const typed = words.length > 0 ? words.join(' ') : argv[0];
  throw new UsageError(`unknown command "${typed}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
}

const help = () => [...COMMANDS.map(usage), 'parley help | --help', 'parley version | --version'].join('\n');
/**
 * Help and the version, as words and as flags. The words are for `npm exec parley version`: npm takes a
 * `--version` or `--help` after the command name as its own (npx passes them on; docs/cli.md).
 */
const INFO_WORDS: Record<string, (() => string) | undefined> = {
  help,
  '--help': help,
  '-h': help,
  version: () => PARLEY_VERSION,
  '--version': () => PARLEY_VERSION,
  '-v': () => PARLEY_VERSION,
};

/** Runs one `parley` command: JSON on stdout; a one-line error on stderr and a non-zero exit on failure. */
async function main(args: string[]): Promise<number> {
  // `npm exec parley -- --version` hands parley the `--` that told npm to stop reading options.
  const argv = args[0] === '--' ? args.slice(1) : args;
  let services: Services | undefined;
  let deps: Deps | undefined;
  try {
    const info = INFO_WORDS[argv[0] ?? 'help'];
    if (info) {
      process.stdout.write(info() + '\n');
      return 0;
    }
    const { command, rest } = findCommand(argv);
    const { values, positionals } = parseCommandLine(command, rest);
    const config = loadConfig();
    // Loaded on first use: the application graph takes seconds to import, and usage errors need none of it.
    const open = async (options?: OpenOptions) =>
      (services ??= await (await import('../services.js')).openServices(config, undefined, options));
    // The common commands need one service: the database alone spares importing the whole graph.
    const openDeps = async () => (deps ??= await (await import('../db/open.js')).openDeps(config));
    const result = await command.run({ config, services: open, deps: openDeps, options: values, positionals });
    // A command that serves over stdout (mcp) returns nothing to print.
    if (result !== undefined) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  } catch (error) {
    process.stderr.write(`parley: ${describe(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await services?.deps.db.destroy();
    await deps?.db.destroy();
  }
}

function usage(command: Command): string {
  return `parley ${command.name} ${command.usage}`.trimEnd();
}

function parseCommandLine(command: Command, args: string[]) {
  try {
    const parsed = parseArgs({ args, options: command.options, allowPositionals: true, strict: true });
    const values = parsed.values as Record<string, string | undefined>;
    for (const required of command.required ?? []) {
      if (!values[required]) throw new UsageError(`--${required} is required; usage: ${usage(command)}`);
    }
    if (parsed.positionals.length !== (command.positionals ?? 0)) {
      throw new UsageError(`usage: ${usage(command)}`);
    }
    return { values, positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${(error as Error).message}; usage: ${usage(command)}`);
  }
}

function describe(error: unknown): string {
  if (error instanceof ConfigError) return error.problems.join('; ');
  if (error instanceof AppError) return `${error.message} (${error.code})`.replace(/\s*\n\s*/g, ' ');
  if (error instanceof Error) return error.message.replace(/\s*\n\s*/g, ' ');
  return String(error);
}

process.exitCode = await main(process.argv.slice(2));
