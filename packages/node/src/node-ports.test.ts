import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeOutput } from '@mcp-resilience/chaos/process';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeSleep } from './node-ports.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * A process whose only pending work is one engine backoff (the stub answers 429 once, then 200).
 * On exit it says how many requests the stub got: the wire's own word on whether the backoff ran out.
 */
const script = `
import { createResilientFetch } from '@mcp-resilience/node';
import { defaultSleep } from '@mcp-resilience/client/adapter';
let n = 0;
process.on('exit', () => console.log(\`fetches \${n}\`));
const fetch = async () => n++ === 0
  ? new Response('', { status: 429, headers: { 'retry-after': process.env.RETRY_AFTER } })
  : new Response('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}', { status: 200, headers: { 'content-type': 'application/json' } });
const resilient = createResilientFetch({
  fetch, onEvent: (e) => console.log(JSON.stringify(e)), ...(process.env.SLEEP === 'default' ? { sleep: defaultSleep } : {}),
});
resilient('http://127.0.0.1:9/mcp', {
  method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
}).then(() => console.log('settled'), () => console.log('settled'));
`;

/** A run takes well under a second, or the Retry-After of 1 s more: a minute is a hang. */
const RUN_HANG_MS = 60_000;

/** Runs the script against the BUILT package (resolved by its own name from the package directory); one still running after a minute has hung, and says so. */
function run(env: Record<string, string>): Promise<{ code: number | null; ms: number; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    let hung = false;
    const guard = setTimeout(() => ((hung = true), child.kill('SIGKILL')), RUN_HANG_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      if (hung) return reject(new Error(`hung: the script (${JSON.stringify(env)}) had not exited after ${RUN_HANG_MS / 1000} s\n${describeOutput({ stdout: out, stderr: err })}`));
      if (err.trim()) return reject(new Error(`the script (${JSON.stringify(env)}) wrote on stderr\n${describeOutput({ stdout: out, stderr: err })}`));
      resolve({ code, ms: performance.now() - started, lines: out.trim().split('\n') });
    });
  });
}

describe('nodeSleep', () => {
  it('waits the given time', async () => {
    const started = performance.now();
    await nodeSleep(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('rejects with the signal reason when aborted while waiting, not when its time is up', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const waiting = nodeSleep(3_600_000, controller.signal); // an hour: only the abort can end it within the test
    controller.abort(reason);
    let guard: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      guard = setTimeout(() => reject(new Error('hung: nodeSleep did not end within 10 s of its abort')), 10_000);
    });
    await expect(Promise.race([waiting, hung]).finally(() => clearTimeout(guard))).rejects.toBe(reason);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(nodeSleep(10_000, controller.signal)).rejects.toThrow('gone');
  });

  describe('a process with only a pending engine backoff (built package)', { timeout: RUN_HANG_MS + 30_000 }, () => {
    beforeAll(() => {
      if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
        throw new Error('packages/node is not built: run `pnpm exec turbo run build --filter=@mcp-resilience/node...` first');
      }
    });

    it('exits instead of waiting out the backoff: the retry is never sent', async () => {
      const { code, lines } = await run({ RETRY_AFTER: '10' });
      expect(code).toBe(0);
      expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'backed-off', status: 429 });
      expect((JSON.parse(lines[0]!) as { delayMs: number }).delayMs).toBeGreaterThanOrEqual(10_000);
      // It left while the backoff was pending: the stub got the first request only, and the call never settled.
      expect(lines.slice(1)).toEqual(['fetches 1']);
    });

    it('stays for the backoff with a timer that holds the process (the control)', async () => {
      const { code, ms, lines } = await run({ RETRY_AFTER: '1', SLEEP: 'default' });
      expect(code).toBe(0);
      expect(lines.slice(-2)).toEqual(['settled', 'fetches 2']);
      expect(ms).toBeGreaterThanOrEqual(1_000);
    });
  });
});
