import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeMarkdown } from './report.js';

/**
 * `npm run bench:cli`: how long common `parley` commands take as whole processes, the shipped bin (a bundle
 * it builds itself) against the same CLI run through tsx's loader, in turn, on one SQLite data dir.
 * Timed by /usr/bin/time (the kernel's accounting of each finished process); medians of BENCH_CLI_RUNS.
 */
const runs = Number(process.env.BENCH_CLI_RUNS ?? 7);
const output = process.env.BENCH_OUTPUT ?? 'BENCHMARKS.md';
const root = path.join(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-cli-'));
// reset-password prints a link to the address users open, which it must be told.
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PUBLIC_BASE_URL: 'https://parley.example.com' };

const BIN = ['bin/parley.js'];
const THROUGH_TSX = ['--import', 'tsx', 'src/cli/main.ts'];

interface Timing {
  wallS: number;
  cpuS: number;
}

/** One whole-process run of `node ARGS`, as /usr/bin/time accounts it. */
function timed(args: string[]): Timing {
  const report = path.join(dataDir, 'time.txt');
  execFileSync('/usr/bin/time', ['-f', '%e %U %S', '-o', report, process.execPath, ...args], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  const [wall, user, system] = fs.readFileSync(report, 'utf8').trim().split(/\s+/).map(Number);
  return { wallS: wall!, cpuS: user! + system! };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function setUp(): string {
  const out = execFileSync(
    process.execPath,
    [...BIN, 'setup', '--workspace', 'Bench', '--email', 'cli@bench.example', '--password', 'quiet violet harbour'],
    { cwd: root, env, encoding: 'utf8' },
  );
  return (JSON.parse(out) as { workspace: { id: string } }).workspace.id;
}

function main(): void {
  const workspace = setUp();
  const commands: Array<[string, string[]]> = [
    ['parley --help', ['--help']],
    ['parley token create', ['token', 'create', '--workspace', workspace]],
    [
      'parley simulate inbound',
      ['simulate', 'inbound', '--workspace', workspace, '--from', '+14155550100', '--text', 'hi'],
    ],
    ['parley campaign list', ['campaign', 'list', '--workspace', workspace]],
    ['parley user reset-password', ['user', 'reset-password', '--email', 'cli@bench.example']],
  ];
  const rows = commands.map(([label, args]) => {
    timed([...BIN, ...args]); // warm-up: builds the bundle on the first command, warms the file cache
    timed([...THROUGH_TSX, ...args]);
    const bin: Timing[] = [];
    const tsx: Timing[] = [];
    for (let i = 0; i < runs; i++) {
      bin.push(timed([...BIN, ...args]));
      tsx.push(timed([...THROUGH_TSX, ...args]));
    }
    const [binWall, binCpu] = [median(bin.map((t) => t.wallS)), median(bin.map((t) => t.cpuS))];
    const [tsxWall, tsxCpu] = [median(tsx.map((t) => t.wallS)), median(tsx.map((t) => t.cpuS))];
    console.log(
      `${label.padEnd(28)} bin ${binWall.toFixed(2)} s (cpu ${binCpu.toFixed(2)})  tsx ${tsxWall.toFixed(2)} s`,
    );
    return `| \`${label}\` | ${binWall.toFixed(2)} s | ${binCpu.toFixed(2)} s | ${tsxWall.toFixed(2)} s | ${tsxCpu.toFixed(2)} s | ${(binCpu / tsxCpu).toFixed(2)} |`;
  });
  const cpu = os.cpus();
  writeMarkdown(
    output,
    [
      `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:cli\``,
      '',
      `Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}, SQLite; median of ${runs} runs each, taken in turn.`,
      '',
      '| Command | `parley` (bundle): wall | CPU | through tsx (baseline): wall | CPU | CPU ratio |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
    'bench-cli',
    'npm run bench:cli',
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main();
