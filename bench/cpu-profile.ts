import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a process's CPU went, from the `.cpuprofile` files `node --cpu-prof` wrote: self time summed by
 * area (a package in node_modules, a folder of src/, Node's own code, the garbage collector, idle), so
 * a benchmark can say what limits it.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const inSource = /\/src\/([^/]+)\//.exec(url);
  if (inSource) return `src/${inSource[1]}`;
  if (url.startsWith('node:')) return url.split('/')[0]!;
  return path.basename(url);
}

export function summariseProfiles(directory: string, top = 14): string {
  const byArea = new Map<string, number>();
  let total = 0;
  for (const file of fs.readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as Profile;
    const areas = new Map(profile.nodes.map((node) => [node.id, areaOf(node.callFrame)]));
    profile.samples.forEach((id, i) => {
      const micros = profile.timeDeltas[i] ?? 0;
      const area = areas.get(id) ?? '(unknown)';
      byArea.set(area, (byArea.get(area) ?? 0) + micros);
      if (area !== '(idle)') total += micros;
    });
  }
  byArea.delete('(idle)');
  return [...byArea.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([area, micros]) =>
        `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${(micros / 1e6).toFixed(1).padStart(6)} s  ${area}`,
    )
    .join('\n');
}

if (process.argv[1]?.endsWith('cpu-profile.ts') && process.argv[2]) console.log(summariseProfiles(process.argv[2]));
