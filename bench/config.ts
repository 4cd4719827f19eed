/** Benchmark settings, read from BENCH_* environment variables (defaults: the full size). */
export type Engine = 'sqlite' | 'postgres';

export interface BenchConfig {
  engines: Engine[];
  /** Contacts and inbound messages seeded into the measured workspace. */
  contacts: number;
  messages: number;
  /** Workspaces of noise next to it, each with this many contacts and messages. */
  noiseWorkspaces: number;
  noiseContacts: number;
  /** Seconds per autocannon measurement, and of the warm-up run before it. */
  duration: number;
  warmup: number;
  connections: number;
  /** An existing PostgreSQL database to use instead of a throwaway cluster. */
  databaseUrl: string | null;
  pgPort: number;
  serverPort: number;
  helloPort: number;
  /** Where BENCHMARKS.md is written; empty to skip writing it. */
  output: string;
  keepData: boolean;
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number (got "${raw}")`);
  return value;
}

function engines(raw: string | undefined): Engine[] {
  const names = (raw ?? 'sqlite,postgres')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (name !== 'sqlite' && name !== 'postgres') throw new Error(`BENCH_ENGINES: unknown engine "${name}"`);
  }
  return names as Engine[];
}

export function loadBenchConfig(): BenchConfig {
  const env = process.env;
  return {
    engines: engines(env.BENCH_ENGINES),
    contacts: integer('BENCH_CONTACTS', 1_000_000),
    messages: integer('BENCH_MESSAGES', 1_000_000),
    noiseWorkspaces: integer('BENCH_NOISE_WORKSPACES', 2),
    noiseContacts: integer('BENCH_NOISE_CONTACTS', 50_000),
    duration: integer('BENCH_DURATION', 10),
    warmup: integer('BENCH_WARMUP', 3),
    connections: integer('BENCH_CONNECTIONS', 10),
    databaseUrl: env.BENCH_DATABASE_URL?.trim() || null,
    pgPort: integer('BENCH_PG_PORT', 54340),
    serverPort: integer('BENCH_PORT', 18443),
    helloPort: integer('BENCH_HELLO_PORT', 18444),
    output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
    keepData: env.BENCH_KEEP === '1',
  };
}
