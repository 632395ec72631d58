import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { parseReport } from '@mcp-resilience/scenarios';
import { readOutput, runNodeScript } from 'node-sample/dist/run-node-script.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_PATH, relayChaosControl } from './chaos-relay.ts';
import { servePage } from './run-in-chromium.ts';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));
/** A run of one file takes seconds, Chromium's start (a minute at most) included: 150 s is a hang. */
const RUN_CAP_MS = 150_000;
const runMain = (args: readonly string[]) => runNodeScript(MAIN, args, RUN_CAP_MS);

let chaos: ChaosProcess | undefined;

// The entry `pnpm proof` uses, as it uses it: the built main against an mcp-chaos process started
// by someone else (this file, by PID), with no `--control-origin`. The whole corpus through it,
// compared with every other runtime, is `pnpm proof` (proof/).
beforeAll(async () => {
  expect(existsSync(MAIN), `${MAIN} is missing: the sample was not built`).toBe(true);
  chaos = await startChaosProcess();
}, START_CAP_MS + 30_000); // above the start's cap, so that "did not start" is what fails
afterAll(async () => {
  await chaos?.stop();
});

describe('the browser sample, in Chromium, cross-origin', { timeout: RUN_CAP_MS + 30_000 }, () => {
  it('runs a scenario in the page and exits 0 with its one-line summary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'browser-sample-corpus-'));
    try {
      await copyFile(join(SCENARIOS, 'evict-amdahl.json'), join(dir, 'evict-amdahl.json'));
      const ran = await runMain([dir, '--chaos', chaos!.control]);
      expect(readOutput(ran, parseReport)).toMatchObject({ runtime: 'browser', passed: 1, failed: 0, scenarios: [{ name: 'evict-amdahl', ok: true }] });
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toBe('browser: 1 scenario, 1 passed, 0 failed\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 1 and names the file when the corpus has one it cannot map', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'browser-sample-corpus-'));
    try {
      await writeFile(join(dir, 'notes.txt'), 'not a scenario');
      const broken = await runMain([dir, '--chaos', chaos!.control]);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toBe('browser: 1 scenario, 0 passed, 1 failed (notes.txt)\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the chaos relay', () => {
  it("serves the page's own origin only, as mcp-chaos's control API does", async () => {
    const { origin, server } = await servePage('');
    try {
      // node:http, not fetch: fetch would not send a Host of our choosing
      const ask = (headers: Record<string, string>) => new Promise<number | undefined>((resolve, reject) => {
        request(`${origin}${RELAY_PATH}`, { method: 'POST', headers }, (response) => (response.resume(), resolve(response.statusCode)))
          .once('error', reject).end(JSON.stringify({ url: `${chaos!.control}/state`, method: 'GET' }));
      });
      expect(await ask({ origin })).toBe(200);
      expect(await ask({ origin: 'http://127.0.0.1:1' })).toBe(403); // another page on this machine
      expect(await ask({})).toBe(403);
      expect(await ask({ origin, host: 'rebound.example:80' })).toBe(403); // DNS rebinding
    } finally {
      server.close();
    }
  });

  it('reaches nothing but a loopback chaos control API', async () => {
    for (const url of ['https://example.com/_chaos/state', 'http://127.0.0.1:9/mcp', 'http://127.0.0.1.example.com:80/_chaos']) {
      expect(await relayChaosControl({ url, method: 'GET' })).toMatchObject({ status: 403 });
    }
    expect(await relayChaosControl({ url: `${chaos!.control}/state`, method: 'GET' })).toMatchObject({ status: 200 });
  });
});
