/**
 * Parley's image under Podman, as CI runs it: built from the repository's Dockerfile on a base given as
 * PARLEY_CONTAINER_BASE (default: the stand-in for the official Node image that
 * ../shared/tools/node-base-image.sh builds), run with the host's network so it serves on loopback.
 * Used by test/container/image.test.ts and bench/container.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { REPO_ROOT } from '../cli.js';
import { mustRun, runCommand, type CommandResult } from '../host-tools.js';

export { freePort } from '../host-tools.js';

export const BASE_IMAGE = process.env.PARLEY_CONTAINER_BASE ?? 'localhost/node:24-bookworm-slim';
export const IMAGE = 'localhost/parley:test';
/** The uid of the image's user `node`, which must own a volume mounted at /data. */
export const CONTAINER_UID = 1000;
const SERVING_DEADLINE_MS = 120_000;
/** crun fails on these machines' cgroup layout; runc works (stack notes, "Containers"). */
const RUNTIME_ARGS = fs.existsSync('/usr/sbin/runc') ? ['--runtime', '/usr/sbin/runc'] : [];

/**
 * Podman's environment. Without `default_ulimits = []` every run fails here (setrlimit RLIMIT_NOFILE),
 * and runc needs the cgroupfs manager: a containers.conf of the test's own unless one is given.
 */
function podmanEnv(): NodeJS.ProcessEnv {
  if (process.env.CONTAINERS_CONF) return process.env;
  const file = path.join(os.tmpdir(), `parley-containers-${process.pid}.conf`);
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n');
  }
  return { ...process.env, CONTAINERS_CONF: file };
}

/** Runs `podman ARGS`; resolves with its exit code and output. */
export function podman(args: string[], timeoutMs = 120_000): Promise<CommandResult> {
  return runCommand('podman', args, { env: podmanEnv(), timeoutMs });
}

/** Runs `podman ARGS`, which must succeed; returns its output, trimmed. */
export async function mustPodman(args: string[], timeoutMs = 120_000): Promise<string> {
  return (await mustRun('podman', args, { env: podmanEnv(), timeoutMs })).trim();
}

/** Fails with what to do when the base image is missing (no registry is reachable from these machines). */
export async function requireBaseImage(): Promise<void> {
  if ((await podman(['image', 'exists', BASE_IMAGE])).code === 0) return;
  throw new Error(
    `base image ${BASE_IMAGE} not found: build it with ../shared/tools/node-base-image.sh, or set ` +
      'PARLEY_CONTAINER_BASE=node:24-bookworm-slim where Docker Hub is reachable',
  );
}

/** Builds the image from the Dockerfile (Docker format, which keeps HEALTHCHECK); returns its size in bytes. */
export async function buildImage(extraArgs: string[] = []): Promise<number> {
  await mustPodman(
    [
      'build',
      '--isolation',
      'chroot',
      '--network',
      'host',
      '--format',
      'docker',
      '--build-arg',
      `BASE=${BASE_IMAGE}`,
    ].concat(extraArgs, ['-t', IMAGE, REPO_ROOT]),
    15 * 60_000,
  );
  return Number(await mustPodman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
}

/** A host folder for /data, owned by the image's user as a volume must be. */
export function dataVolume(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-volume-'));
  if (process.getuid?.() === 0) fs.chownSync(dir, CONTAINER_UID, CONTAINER_UID);
  return dir;
}

/**
 * Starts a container of the image in the background: `env` added to the image's, the volume at /data,
 * the host's network (so PORT is a loopback port here). The automatic health-check timer needs systemd,
 * which these machines lack; `podman healthcheck run` still runs the image's check.
 */
export async function runContainer(name: string, volume: string, env: Record<string, string>): Promise<void> {
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  await mustPodman(
    ['run', '-d', '--name', name, ...RUNTIME_ARGS, '--network', 'host', '--health-interval', 'disable'].concat(
      envArgs,
      ['-v', `${volume}:/data`, IMAGE],
    ),
  );
}

/** `podman start` again (same flags, same volume). */
export async function startContainer(name: string): Promise<void> {
  await mustPodman(['start', name]);
}

/** Runs a command in the running container as the image's user; resolves with its outcome. */
export function execInContainer(name: string, command: string[]): Promise<CommandResult> {
  return podman(['exec', name, ...command]);
}

/**
 * `podman stop -t SECONDS` (SIGTERM, then SIGKILL once they are up) and the exit code the container
 * ended with: 0 for a clean stop, 137 when it had to be killed.
 */
export async function stopContainer(name: string, seconds: number): Promise<number> {
  await mustPodman(['stop', '-t', String(seconds), name], (seconds + 30) * 1000);
  return Number(await mustPodman(['inspect', '--format', '{{.State.ExitCode}}', name]));
}

/** Removes the container, running or not. */
export async function removeContainer(name: string): Promise<void> {
  await podman(['rm', '-f', '-t', '0', name]);
}

/** The container's log so far (stdout and stderr), for failure messages. */
export async function containerLogs(name: string): Promise<string> {
  const { stdout, stderr } = await podman(['logs', name]);
  return `${stdout}${stderr}`;
}

/**
 * Resolves with an HTTPS agent trusting the certificate Parley generated in the volume, once
 * GET /healthz on `port` answers 200; fails with the container's log after SERVING_DEADLINE_MS.
 */
export async function waitServing(name: string, volume: string, port: number): Promise<Agent> {
  const certFile = path.join(volume, 'tls', 'cert.pem');
  const deadline = Date.now() + SERVING_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(certFile)) {
      const agent = new Agent({ connect: { ca: fs.readFileSync(certFile) } });
      const answered = await request(`https://127.0.0.1:${port}/healthz`, { dispatcher: agent })
        .then(async (response) => (await response.body.dump(), response.statusCode === 200))
        .catch(() => false);
      if (answered) return agent;
      await agent.close();
    }
    const state = await mustPodman(['inspect', '--format', '{{.State.Status}}', name]);
    if (state !== 'running') throw new Error(`${name} is ${state}:\n${await containerLogs(name)}`);
    await delay(100);
  }
  throw new Error(`${name} did not serve within ${SERVING_DEADLINE_MS} ms:\n${await containerLogs(name)}`);
}
