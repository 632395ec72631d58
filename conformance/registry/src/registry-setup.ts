// Once per run: a registry on 127.0.0.1 and the release rehearsed on it (a copy of the repository,
// the workflow's version and publish commands). Teardown stops the registry by its PID and removes
// its storage and the copy: nothing is left behind.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { publishedPackages } from '../../../scripts/pack-published.mjs';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { rehearseRelease } from './release-rehearsal.ts';
import { startRegistry, type Registry } from './verdaccio.ts';
import './provided-context.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(join(tmpdir(), 'mcp-resilience-release-'));
  let registry: Registry | undefined;
  let chaos: ChaosProcess | undefined;
  const teardown = async () => {
    await registry?.stop();
    await chaos?.stop();
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    const started = performance.now();
    registry = await startRegistry(join(workDir, 'registry'));
    const ready = (performance.now() - started) / 1000;
    const packages = publishedPackages().map(({ name, dir }) => ({ name, folder: basename(dir) }));
    const rehearsal = await rehearseRelease(ROOT, workDir, registry.url, packages);
    console.log(`release rehearsed on ${registry.url} (Verdaccio, pid ${registry.pid}, ready in ${ready.toFixed(1)} s): ${JSON.stringify(rehearsal.seconds)} s; published ${readdirSync(join(registry.storage, '@mcp-resilience')).join(', ')}`);
    // One mcp-chaos for the example runs (a pool server each), once the release's processes are done.
    chaos = await startChaosProcess();
    project.provide('chaosControl', chaos.control);
    project.provide('registry', registry.url);
    project.provide('storage', registry.storage);
    project.provide('releasedCopy', rehearsal.dir);
    project.provide('released', rehearsal.released);
    project.provide('repositoryOutput', rehearsal.repository.output);
    project.provide('versionOutput', rehearsal.version.output);
    project.provide('publishOutput', rehearsal.publish.output);
  } catch (error) {
    const log = registry?.log() ?? '';
    await teardown();
    throw log === '' ? error : new Error(`${(error as Error).message}\nverdaccio's log:\n${log}`, { cause: error });
  }
  return teardown;
}
