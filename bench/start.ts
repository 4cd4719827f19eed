import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';

/**
 * `npm run bench:start`: time to first answer of `npm start` — from spawning it (its prestart included) to
 * the first 200 from /healthz — as an operator restarts it: one SQLite data dir, migrated and with its
 * certificate after an uncounted first run, and the dashboard as that run left it (web/src unchanged).
 * Medians of BENCH_START_RUNS.
 */
const runs = Number(process.env.BENCH_START_RUNS ?? 5);
const root = path.join(import.meta.dirname, '..');
const PORT = Number(process.env.BENCH_START_PORT ?? 18443);
// The certificate is the one the run generates; only reachability is asked of this loopback call.
const agent = new Agent({ connect: { rejectUnauthorized: false } });

/** One `npm start` until its first answer, then SIGTERM and wait for it to exit. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-start-'));

async function firstAnswerMs(): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), LOG_LEVEL: 'silent', DATABASE_URL: '' },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}`);
      const answered = await request(`https://127.0.0.1:${PORT}/healthz`, { dispatcher: agent }).then(
        async (response) => (await response.body.dump(), response.statusCode === 200),
        () => false,
      );
      if (answered) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM'); // npm and the server it started: one process group
    await exited;
  }
}

console.log(`warm-up (migrates, makes the certificate): ${((await firstAnswerMs()) / 1000).toFixed(2)} s`);
const times: number[] = [];
for (let run = 0; run < runs; run++) {
  times.push(await firstAnswerMs());
  console.log(`run ${run + 1}: ${(times.at(-1)! / 1000).toFixed(2)} s`);
}
const sorted = [...times].sort((a, b) => a - b);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `npm start, time to first answer: median ${s(sorted[Math.floor(runs / 2)]!)} (min ${s(sorted[0]!)}, max ${s(sorted.at(-1)!)})`,
);
await agent.close();
fs.rmSync(dataDir, { recursive: true, force: true });
