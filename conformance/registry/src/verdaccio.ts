// A real npm registry on 127.0.0.1: Verdaccio in a child process, its storage and config in a
// folder of the caller's, no uplink (it proxies nothing: what it serves is what was published to
// it), stopped by its PID.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { describeOutput, startProcess } from '@mcp-resilience/chaos/process';

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly pid: number;
  /** Where it keeps what is published to it. */
  readonly storage: string;
  /** The end of its log (warnings and errors, on stdout and stderr), for a failure's message. */
  log(): string;
  /** SIGTERM by PID, SIGKILL if it is still there after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** A port no one listens on now: the system's pick for port 0, released at once. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Verdaccio's config: `uplinks: {}` and no `proxy`, so a package nobody published here is a 404;
 * anyone may read, and publish in our scope only (npm still sends a token: any one will do).
 */
function configText(storage: string): string {
  return [
    `storage: ${JSON.stringify(storage)}`,
    'uplinks: {}',
    'web: { enable: false }',
    'packages:',
    "  '@mcp-resilience/*': { access: $all, publish: $all }",
    "  '**': { access: $all }",
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

/**
 * Starts Verdaccio on a free port of 127.0.0.1 with its config and storage under `dir`, and
 * resolves once it answers `/-/ping` (a minute at most: then it fails naming the command, with
 * the end of what it printed).
 *
 * @example
 * const registry = await startRegistry(mkdtempSync(join(tmpdir(), 'registry-')));
 * // npm publish --registry registry.url …
 * await registry.stop();
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const storage = join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(config, configText(storage));
  const port = await freePort();
  const bin = join(dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const url = `http://127.0.0.1:${port}/`;
  // Ready once it answers its ping (each ask capped at 2 s: a port that takes the connection and says nothing).
  const pinged = (signal: AbortSignal) =>
    fetch(`${url}-/ping`, { signal: AbortSignal.any([signal, AbortSignal.timeout(2_000)]) }).then(async (r) => (await r.body?.cancel(), r.ok || undefined));
  const started = await startProcess(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    name: 'verdaccio', cwd: dir, env: { ...process.env, NODE_NO_WARNINGS: '1' }, ready: { probe: pinged },
  });
  return { url, pid: started.pid, storage, log: () => describeOutput(started.output), stop: () => started.stop() };
}
