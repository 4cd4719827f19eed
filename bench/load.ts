import os from 'node:os';
import autocannon, { type Options, type Result } from 'autocannon';

/** One endpoint under load: a fixed request, or a rotation over several JSON bodies. */
export interface Scenario {
  key: string;
  label: string;
  method: 'GET' | 'POST';
  path: string;
  /** POST bodies, sent in turn across all connections so many distinct rows are read. */
  bodies?: unknown[];
  /** Connections for this scenario, instead of the target's. */
  connections?: number;
  /** A load that runs beside the measured one for its whole run (warm-up included), not measured itself. */
  beside?: Scenario;
}

export interface Measurement {
  key: string;
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  /** CPU the server process spent per request during the measured run (null for the baseline). */
  cpuMsPerRequest: number | null;
  /** The machine's 1-minute load average at the end of the run: above ~2.5, something else ran too. */
  loadAverage: number;
}

export interface LoadTarget {
  baseUrl: string;
  token: string | null;
  /** The server's certificate, handed to autocannon's TLS client. */
  ca: string;
  connections: number;
}

function options(scenario: Scenario, target: LoadTarget, duration: number): Options {
  const headers: Record<string, string> = {
    ...(target.token && { authorization: `Bearer ${target.token}` }),
    ...(scenario.bodies && { 'content-type': 'application/json' }),
  };
  const base: Options = {
    url: target.baseUrl + scenario.path,
    connections: scenario.connections ?? target.connections,
    duration,
    method: scenario.method,
    headers,
    tlsOptions: { ca: target.ca },
    // Slow endpoints queue up behind each other; a latency is a result, not a client time-out.
    timeout: 120,
  };
  const bodies = scenario.bodies?.map((body) => JSON.stringify(body));
  if (!bodies || bodies.length === 0) return base;
  // One shared counter: every request, whichever connection sends it, takes the next body.
  let next = 0;
  return {
    ...base,
    requests: [
      {
        method: scenario.method,
        path: scenario.path,
        headers,
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length]! }),
      },
    ],
  };
}

/** Fails loudly: a benchmark of error responses would measure the wrong thing. */
function assertAllOk(scenario: Scenario, result: Result): void {
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures === 0) return;
  const codes = Object.entries(result.statusCodeStats)
    .map(([code, { count }]) => `${code}×${count}`)
    .join(', ');
  throw new Error(
    `${scenario.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts (${codes})`,
  );
}

/** Seconds the load beside a measurement starts before it and runs after it. */
const BESIDE_MARGIN = 1;

/** A warm-up run (JIT, caches), then the measured run of `duration` seconds. */
export async function measure(
  scenario: Scenario,
  target: LoadTarget,
  durations: { warmup: number; duration: number },
  serverCpuSeconds?: () => number,
): Promise<Measurement> {
  const { beside } = scenario;
  const besideRun =
    beside && autocannon(options(beside, target, durations.warmup + durations.duration + 2 * BESIDE_MARGIN));
  if (besideRun) await new Promise((resolve) => setTimeout(resolve, BESIDE_MARGIN * 1000));
  if (durations.warmup > 0) assertAllOk(scenario, await autocannon(options(scenario, target, durations.warmup)));
  // The server's CPU per request means nothing while another load shares it.
  const cpuSeconds = beside ? undefined : serverCpuSeconds;
  const cpuBefore = cpuSeconds?.();
  const result = await autocannon(options(scenario, target, durations.duration));
  const cpuAfter = cpuSeconds?.();
  assertAllOk(scenario, result);
  if (besideRun) assertAllOk(beside, await besideRun);
  const requests = result.latency.totalCount;
  return {
    key: scenario.key,
    label: scenario.label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: requests,
    cpuMsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined ? null : ((cpuAfter - cpuBefore) * 1000) / requests,
    loadAverage: os.loadavg()[0] ?? 0,
  };
}
