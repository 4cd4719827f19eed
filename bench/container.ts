import os from 'node:os';
import {
  buildImage,
  containerLogs,
  dataVolume,
  freePort,
  IMAGE,
  mustPodman,
  removeContainer,
  requireBaseImage,
  runContainer,
  startContainer,
  stopContainer,
  waitServing,
} from '../test/container/podman.js';
import { writeMarkdown } from './report.js';

/**
 * `npm run bench:container`: the image's size, and the time from `podman run` to the first 200 from
 * /healthz over HTTPS on a fresh volume (first start: TLS certificate, SQLite schema) and from
 * `podman start` of the same stopped container (a restart), medians of BENCH_CONTAINER_RUNS. Podman as
 * CI runs it (test/container/podman.ts), on PARLEY_CONTAINER_BASE (default: the local stand-in image).
 */
const runs = Number(process.env.BENCH_CONTAINER_RUNS ?? 5);
const output = process.env.BENCH_OUTPUT ?? 'BENCHMARKS.md';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Seconds from `start()` to the first answer of the container's /healthz. */
async function toFirstAnswer(name: string, volume: string, port: number, start: () => Promise<void>) {
  const began = performance.now();
  await start();
  const agent = await waitServing(name, volume, port);
  const seconds = (performance.now() - began) / 1000;
  await agent.close();
  return seconds;
}

await requireBaseImage();
const buildBegan = performance.now();
const bytes = await buildImage();
const buildSeconds = (performance.now() - buildBegan) / 1000;
const first: number[] = [];
const restart: number[] = [];
for (let run = 0; run < runs; run++) {
  const name = `parley-bench-${process.pid}-${run}`;
  const volume = dataVolume();
  const port = await freePort();
  try {
    first.push(await toFirstAnswer(name, volume, port, () => runContainer(name, volume, { PORT: String(port) })));
    if ((await stopContainer(name, 10)) !== 0)
      throw new Error(`${name} did not stop cleanly:\n${await containerLogs(name)}`);
    restart.push(await toFirstAnswer(name, volume, port, () => startContainer(name)));
  } finally {
    await removeContainer(name);
  }
}
const base = await mustPodman([
  'image',
  'inspect',
  '--format',
  '{{.Size}}',
  process.env.PARLEY_CONTAINER_BASE ?? 'localhost/node:24-bookworm-slim',
]);
const cpu = os.cpus();
const megabytes = (value: number) => `${(value / 1e6).toFixed(0)} MB`;
const generated = [
  `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:container\``,
  '',
  `Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), Podman ${await mustPodman(['version', '--format', '{{.Client.Version}}'])} with runc, SQLite in the volume; median of ${runs} runs each.`,
  '',
  '| Figure | Value |',
  '| --- | --- |',
  `| Image size (\`${IMAGE}\`, uncompressed) | ${megabytes(bytes)} |`,
  `| of which the base image | ${megabytes(Number(base))} |`,
  `| Build (layers cached where nothing changed) | ${buildSeconds.toFixed(1)} s |`,
  `| \`podman run\` to the first /healthz answer, fresh volume | ${median(first).toFixed(2)} s (${first.map((s) => s.toFixed(1)).join(', ')}) |`,
  `| \`podman start\` (restart) to the first answer | ${median(restart).toFixed(2)} s (${restart.map((s) => s.toFixed(1)).join(', ')}) |`,
].join('\n');
if (output) writeMarkdown(output, generated, 'bench-container', 'npm run bench:container');
else console.log(generated);
