import { execFile, spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { once } from './cache-lock.ts';
import { isNodeLineError, nodeBinary, NODE_LINES, NodeLineError, type NodeLine } from './index.ts';

const run = promisify(execFile);
const CACHE = fileURLToPath(new URL('../node_modules/.cache/node-lines/', import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), 'node-lines-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

// One real line (the first call fetches it through npm, later runs find it cached); the others
// are fetched by the proof and the benchmarks that use them.
describe('nodeBinary', () => {
  it('gives an absolute path to a Node binary that runs and says the pinned version', async () => {
    const binary = await nodeBinary(24);
    expect(isAbsolute(binary)).toBe(true);
    expect(binary.startsWith(CACHE)).toBe(true);
    expect((await run(binary, ['--version'])).stdout.trim()).toBe(`v${NODE_LINES[24]}`);
    expect((await run(binary, ['-p', 'process.versions.node'])).stdout.trim()).toBe(NODE_LINES[24]);
    // Only the binary is kept: no tarball, no staging folder, no lock left behind. Of this line's
    // alone: another package's tests may be fetching another line into the same cache meanwhile.
    expect((await readdir(join(CACHE, `node-v${NODE_LINES[24]}`)))).toEqual(['node']);
    const version = NODE_LINES[24];
    expect((await readdir(CACHE)).filter((name) => name.startsWith(`staging-${version}-`) || name === `node-v${version}.lock`)).toEqual([]);
  });

  it('answers the same path to callers at once in one process', async () => {
    const [a, b] = await Promise.all([nodeBinary(24), nodeBinary(24)]);
    expect(a).toBe(b);
  });

  it('downloads once for two processes that ask at once, each given the same binary', async () => {
    const cache = await mkdtemp(join(scratch, 'cache-'));
    const stagings = new Set<string>();
    const watcher = watch(cache, (_, name) => name?.startsWith('staging-') && stagings.add(name));
    const index = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const ask = () => run(process.execPath, ['--input-type=module', '-e', `import { nodeBinary } from ${JSON.stringify(index)}; process.stdout.write(await nodeBinary(22));`], {
      env: { ...process.env, NODE_LINES_CACHE: cache }, timeout: 420_000,
    });
    try {
      const [a, b] = await Promise.all([ask(), ask()]);
      expect(a.stdout).toBe(join(cache, `node-v${NODE_LINES[22]}`, 'node'));
      expect(b.stdout).toBe(a.stdout);
      expect((await run(a.stdout, ['--version'])).stdout.trim()).toBe(`v${NODE_LINES[22]}`);
      expect(stagings.size).toBe(1);
      expect(await readdir(cache)).toEqual([`node-v${NODE_LINES[22]}`]);
    } finally {
      watcher.close();
    }
  });

  it('names a line it does not pin with a typed error', async () => {
    const error: unknown = await nodeBinary(18 as NodeLine).catch((e: unknown) => e);
    expect(isNodeLineError(error)).toBe(true);
    expect(error).toBeInstanceOf(NodeLineError);
    expect((error as NodeLineError).code).toBe('UNKNOWN_LINE');
    expect((error as Error).message).toMatch(/Node 18: no version pinned \(lines: 22, 24, 26\)/);
  });

  it('says UNSUPPORTED_PLATFORM off linux-x64', async () => {
    const arch = Object.getOwnPropertyDescriptor(process, 'arch')!;
    Object.defineProperty(process, 'arch', { value: 'arm64' });
    try {
      const error: unknown = await nodeBinary(26).catch((e: unknown) => e);
      expect((error as NodeLineError).code).toBe('UNSUPPORTED_PLATFORM');
      expect((error as Error).message).toContain('linux-arm64');
    } finally {
      Object.defineProperty(process, 'arch', arch);
    }
  });

  it('brands its errors, so that a copy of this package from another bundle still recognizes them', () => {
    expect(isNodeLineError(new NodeLineError('DOWNLOAD_FAILED', 'x'))).toBe(true);
    expect(isNodeLineError(Object.assign(new Error('x'), { code: 'DOWNLOAD_FAILED' }))).toBe(false);
  });
});

describe('once (the lock across processes)', () => {
  /** A process that takes the lock and holds it until its stdin closes (then lets go of it when `clean`, or dies holding it). */
  function holder(lock: string, clean = false) {
    const fs = `require('fs')`;
    const script = `${fs}.writeFileSync(${JSON.stringify(lock)}, String(process.pid), { flag: 'wx' }); console.log('held');
      process.stdin.resume(); process.stdin.on('end', () => { ${clean ? `${fs}.rmSync(${JSON.stringify(lock)});` : ''} process.exit(0); });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const held = new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
    });
    return { child, held };
  }

  it('runs the work once for two callers at once, the second waiting for the first', async () => {
    const dir = await mkdtemp(join(scratch, 'twice-'));
    const made = join(dir, 'made');
    let works = 0;
    const work = async () => {
      works += 1;
      await writeFile(`${made}.tmp`, 'x');
      await run('mv', [`${made}.tmp`, made]);
    };
    await Promise.all([once(`${made}.lock`, () => existsSync(made), work, 30_000), once(`${made}.lock`, () => existsSync(made), work, 30_000)]);
    expect(works).toBe(1);
    expect(await readdir(dir)).toEqual(['made']);
  });

  it('waits while another process holds the lock (woken by fs.watch), and does the work once it lets go without doing it', async () => {
    const dir = await mkdtemp(join(scratch, 'held-'));
    const lock = join(dir, 'made.lock');
    const other = holder(lock, true);
    await other.held;
    let works = 0;
    const waiting = once(lock, () => false, async () => void (works += 1), 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(works).toBe(0);
    other.child.stdin.end();
    await waiting;
    expect(works).toBe(1);
  });

  it('takes over a lock whose holder no longer runs', async () => {
    const dir = await mkdtemp(join(scratch, 'stale-'));
    const lock = join(dir, 'made.lock');
    const other = holder(lock);
    await other.held;
    other.child.stdin.end();
    await new Promise((resolve) => other.child.once('exit', resolve));
    expect(existsSync(lock)).toBe(true); // it died holding it
    let works = 0;
    await once(lock, () => false, async () => void (works += 1), 5_000);
    expect(works).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('gives up with LOCK_TIMEOUT when a live holder keeps the lock past the cap', async () => {
    const dir = await mkdtemp(join(scratch, 'timeout-'));
    const lock = join(dir, 'made.lock');
    const other = holder(lock);
    try {
      await other.held;
      const error: unknown = await once(lock, () => false, async () => undefined, 300).catch((e: unknown) => e);
      expect((error as NodeLineError).code).toBe('LOCK_TIMEOUT');
      expect((error as Error).message).toContain(`held by process ${other.child.pid}`);
    } finally {
      other.child.kill('SIGKILL');
    }
  });
});
