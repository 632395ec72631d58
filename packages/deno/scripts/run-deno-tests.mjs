// The package's test run: `deno test` (least permissions, sanitizers on) with a JUnit report,
// `deno check` of the entry point, the README's example checked and run, and `deno publish
// --dry-run` (slow types included) for core, client and deno, each counted as a test; all
// written as the vitest JSON shape scripts/run-tests.mjs sums. No deno: it fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { denoBinary, denoEnv, REPO_ROOT as root } from './deno-env.mjs';
import { readmeExampleResults } from './readme-example.mjs';

const pkg = join(import.meta.dirname, '..');
const deno = denoBinary(pkg);
const env = denoEnv();
const junit = join(root, '.test-results', 'deno-junit.xml');
mkdirSync(join(root, '.test-results'), { recursive: true });
rmSync(junit, { force: true });

const run = (args, cwd) => spawnSync(deno, args, { cwd, env, stdio: 'inherit', timeout: 300_000 });
const tested = run(['test', '--no-prompt', '--allow-net=127.0.0.1', `--allow-run=node,${deno}`, '--unstable-kv', `--junit-path=${junit}`, 'src/'], pkg);
const results = [];
let xml = '';
try { xml = readFileSync(junit, 'utf8'); } catch { /* no report: counted below */ }
for (const [, attrs, body = ''] of xml.matchAll(/<testcase([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
  const title = /name="([^"]*)"/.exec(attrs)?.[1] ?? '?';
  if (/<skipped/.test(body)) continue; // ignored: shown by deno above, neither passed nor failed
  results.push({ title, status: /<failure/.test(body) ? 'failed' : 'passed' });
}
if (tested.status !== 0 && !results.some((r) => r.status === 'failed')) results.push({ title: 'deno test ran', status: 'failed' });
results.push({ title: 'deno check src/index.ts', status: run(['check', 'src/index.ts'], pkg).status === 0 ? 'passed' : 'failed' });
// Counted whatever happens (mcp-chaos that does not start, say): the results below are written all the same.
results.push(...(await readmeExampleResults(deno, env).catch((error) => [{ title: `the README example: ${error.message}`, status: 'failed' }])));
for (const name of ['core', 'client', 'deno']) {
  const published = run(['publish', '--dry-run', '--allow-dirty'], join(root, 'packages', name));
  results.push({ title: `deno publish --dry-run @mcp-resilience/${name}`, status: published.status === 0 ? 'passed' : 'failed' });
}
// npm serves dist, JSR the sources: the manifests must name the same package and entry points.
for (const name of ['core', 'client', 'deno']) {
  const read = (file) => JSON.parse(readFileSync(join(root, 'packages', name, file), 'utf8'));
  const [npm, jsr] = [read('package.json'), read('deno.json')];
  const inSync = jsr.name === npm.name && jsr.version === npm.version && jsr.license === npm.license &&
    JSON.stringify(Object.keys(jsr.exports)) === JSON.stringify(Object.keys(npm.exports)) &&
    Object.entries(jsr.exports).every(([entry, src]) => npm.exports[entry]?.default === src.replace('./src/', './dist/').replace(/\.ts$/, '.js'));
  results.push({ title: `deno.json and package.json of @mcp-resilience/${name} in sync`, status: inSync ? 'passed' : 'failed' });
}
const passed = results.filter((r) => r.status === 'passed').length;
const failed = results.length - passed;
writeFileSync(join(root, '.test-results', 'mcp-resilience__deno.json'), JSON.stringify({
  numPassedTests: passed, numFailedTests: failed,
  testResults: [{ name: 'deno', status: failed ? 'failed' : 'passed', assertionResults: results.map((r) => ({ title: r.title, status: r.status })) }],
}));
console.log(`deno: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
