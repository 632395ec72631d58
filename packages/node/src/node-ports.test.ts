import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeSleep } from './node-ports.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** A process whose only pending work is one engine backoff (the stub answers 429 once, then 200). */
const script = `
import { createResilientFetch } from '@mcp-resilience/node';
import { defaultSleep } from '@mcp-resilience/client/adapter';
let n = 0;
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

/** Runs the script against the BUILT package (resolved by its own name from the package directory). */
function run(env: Record<string, string>): Promise<{ code: number | null; ms: number; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const killer = setTimeout(() => child.kill(), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      if (err.trim()) return reject(new Error(err));
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

  it('rejects with the signal reason when aborted while waiting', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const started = performance.now();
    const waiting = nodeSleep(10_000, controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await expect(waiting).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(nodeSleep(10_000, controller.signal)).rejects.toThrow('gone');
  });

  describe('a process with only a pending engine backoff (built package)', () => {
    beforeAll(() => {
      if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
        throw new Error('packages/node is not built: run `pnpm exec turbo run build --filter=@mcp-resilience/node...` first');
      }
    });

    it('exits promptly instead of waiting out the backoff', async () => {
      const { code, ms, lines } = await run({ RETRY_AFTER: '10' });
      expect(code).toBe(0);
      expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'backed-off', status: 429 });
      expect((JSON.parse(lines[0]!) as { delayMs: number }).delayMs).toBeGreaterThanOrEqual(10_000);
      expect(lines).not.toContain('settled'); // it left while the backoff was pending
      expect(ms).toBeLessThan(5_000);
    });

    it('stays for the backoff with a timer that holds the process (the control)', async () => {
      const { code, ms, lines } = await run({ RETRY_AFTER: '1', SLEEP: 'default' });
      expect(code).toBe(0);
      expect(lines.at(-1)).toBe('settled');
      expect(ms).toBeGreaterThanOrEqual(1_000);
    });
  });
});
