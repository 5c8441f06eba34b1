import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Where a server spent its time, from a V8 CPU profile (`npm run bench -- --cpu-prof DIR`
 * writes one per thread of each server process: the service's, and the embedded store's): self
 * time by module and by function, and the time spent inside each of the project's own functions,
 * callees included, which tells the phases apart (the writes, the metrics refresh, the reports).
 * FROM and TO keep the samples of that window, in seconds since the profile started (the server
 * process's start).
 * Usage: npm run bench:profile -- FILE [TOP] [FROM TO]
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, top = '25', from = '0', to = 'Infinity'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: npm run bench:profile -- FILE.cpuprofile [TOP] [FROM TO]\n');
  process.exit(2);
}
const whole = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
/** The samples taken between FROM and TO. */
const profile: CpuProfile = { ...whole, samples: [], timeDeltas: [] };
let elapsedUs = 0;
whole.samples.forEach((id, index) => {
  const delta = whole.timeDeltas[index] ?? 0;
  elapsedUs += delta;
  if (elapsedUs >= Number(from) * 1e6 && elapsedUs < Number(to) * 1e6) {
    profile.samples.push(id);
    profile.timeDeltas.push(delta);
  }
});
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

const where = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const path = url.startsWith('file://') ? relative(process.cwd(), new URL(url).pathname) : url;
  return `${functionName || '(anonymous)'} ${path ? `${path}:${lineNumber + 1}` : ''}`.trim();
};

/** The package or source file a frame belongs to: node_modules/<package>, src/<path>, node internals, WebAssembly. */
const moduleOf = (node: ProfileNode) => {
  const { url, functionName } = node.callFrame;
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (url.startsWith('node:')) return 'node internals';
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 builtins';
  const path = relative(process.cwd(), new URL(url).pathname);
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return inModules ? `node_modules/${inModules[1]}` : path;
};

function tally(key: (node: ProfileNode) => string): Map<string, number> {
  const sums = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id);
    if (node) sums.set(key(node), (sums.get(key(node)) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return sums;
}

const totalMs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0) / 1000;
function print(title: string, sums: Map<string, number>) {
  process.stdout.write(`\n| ms | share | ${title} |\n| --- | --- | --- |\n`);
  for (const [name, ms] of [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    process.stdout.write(`| ${Math.round(ms)} | ${((100 * ms) / totalMs).toFixed(1)}% | \`${name}\` |\n`);
  }
}

const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

/** The service's own code: its sources, or their build, which the benchmark's server runs. */
const ownCode = (url: string) =>
  url.startsWith('file://') && /^(src|dist)\//.test(relative(process.cwd(), new URL(url).pathname));

/**
 * Time inside each of the service's functions, callees included, counted once per sample however
 * deep the recursion.
 */
function inclusiveInSource(): Map<string, number> {
  const sums = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const seen = new Set<string>();
    for (let node = nodes.get(id); node; node = nodes.get(parents.get(node.id) ?? -1)) {
      if (ownCode(node.callFrame.url)) seen.add(where(node));
    }
    for (const name of seen) sums.set(name, (sums.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return sums;
}

process.stdout.write(`${(totalMs / 1000).toFixed(1)} s sampled\n`);
print('module', tally(moduleOf));
print('function', tally(where));
print('service function (src/ or dist/), callees included', inclusiveInSource());
