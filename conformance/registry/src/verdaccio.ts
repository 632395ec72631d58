// A real npm registry on 127.0.0.1: Verdaccio in a child process, its storage and config in a
// folder of the caller's, no uplink (it proxies nothing: what it serves is what was published to
// it), stopped by its PID.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const READY_WITHIN_MS = 30_000;
const STOPPED_WITHIN_MS = 5_000;

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly pid: number;
  /** Where it keeps what is published to it. */
  readonly storage: string;
  /** Its log (warnings and errors), for a failure's message. */
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
 * resolves once it answers `/-/ping`.
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
  const logFile = join(dir, 'verdaccio.log');
  const out = createWriteStream(logFile);
  const port = await freePort();
  const bin = join(dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/`;
  const log = () => readFileSync(logFile, 'utf8');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid!, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && child.signalCode === null && process.kill(child.pid!, 'SIGKILL'), STOPPED_WITHIN_MS);
      await exited;
      clearTimeout(timer);
    }
    out.end();
  };
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}: ${log()}`);
    const answered = await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (answered) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`verdaccio did not answer on ${url} within ${READY_WITHIN_MS} ms: ${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid!, storage, log, stop };
}
