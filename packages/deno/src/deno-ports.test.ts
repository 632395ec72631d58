// Deno's own tests (deno test, leak sanitizers on): --allow-net=127.0.0.1 --allow-run=node --unstable-kv
import { deepStrictEqual as assertEquals, ok as assert, rejects } from 'node:assert/strict';
import { isResilienceError, type ResilienceEvent } from '@mcp-resilience/client';
import { connect, createResilientFetch, denoNotSent, denoSleep } from './index.ts';
import { closedPort, startChaos } from './test-support/chaos-process.ts';

/** Keeps the event loop alive (a ref'd timer) until `work` settles: the adapter's own timers are unref'd and would not. */
async function held<T>(work: Promise<T>): Promise<T> {
  const guard = setInterval(() => {}, 1_000);
  try {
    return await work;
  } finally {
    clearInterval(guard);
  }
}

const listTools = (f: typeof fetch, url: string) => f(url, {
  method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
});

Deno.test('a refused connection, as Deno words it, sent nothing', async () => {
  const error = await fetch(`http://127.0.0.1:${closedPort()}/`).then(() => undefined, (e: unknown) => e);
  assert(/tcp connect error: Connection refused/.test(String((error as Error).cause ?? error)));
  assertEquals(denoNotSent(error), true);
  for (const other of [new TypeError('fetch failed'), new Error('connection reset'), undefined, 'x']) assertEquals(denoNotSent(other), false);
});

Deno.test('a server never reached: SERVER_UNREACHABLE at once, naming the URL, nothing waited', async () => {
  const events: ResilienceEvent[] = [];
  const f = createResilientFetch({ onEvent: (e) => events.push(e) });
  const url = `http://127.0.0.1:${closedPort()}/mcp`;
  const error = await listTools(f, url).then(() => undefined, (e: unknown) => e);
  assert(isResilienceError(error, 'SERVER_UNREACHABLE'), String(error));
  assertEquals(error.details, { url, reached: false });
  assertEquals(events.map((e) => e.type), ['gave-up']);
});

Deno.test('a refused connection waits for the server (restartWait, waitForNewServer), then gives up as SERVER_UNREACHABLE, never OUTCOME_UNKNOWN', async () => {
  const events: ResilienceEvent[] = [];
  const f = createResilientFetch({ restartWait: { initialMs: 1, maxMs: 2, maxWaitMs: 30 }, waitForNewServer: true, onEvent: (e) => events.push(e) });
  const error = await held(listTools(f, `http://127.0.0.1:${closedPort()}/mcp`)).then(() => undefined, (e: unknown) => e);
  assert(isResilienceError(error, 'SERVER_UNREACHABLE'), String(error));
  assertEquals(events.map((e) => e.type), ['server-wait-started', 'server-wait-ended', 'gave-up']);
  assertEquals((events[1] as { outcome?: string }).outcome, 'deadline');
});

Deno.test('a host --allow-net does not cover: NOT_PERMITTED naming the flag, at once, never retried', async () => {
  const port = closedPort();
  const error = await fetch(`http://127.0.0.2:${port}/`).then(() => undefined, (e: unknown) => e);
  assertEquals(denoNotSent(error), { blocked: true, needs: `--allow-net=127.0.0.2:${port}` });
  const events: ResilienceEvent[] = [];
  const f = createResilientFetch({ onEvent: (e) => events.push(e) });
  const failed = await listTools(f, `http://127.0.0.2:${port}/mcp`).then(() => undefined, (e: unknown) => e);
  assert(isResilienceError(failed, 'NOT_PERMITTED'), String(failed));
  assertEquals(failed.details, { needs: `--allow-net=127.0.0.2:${port}` });
  assert(failed.message.includes(`--allow-net=127.0.0.2:${port}`));
  assertEquals(events.map((e) => [e.type, (e as { code?: string }).code]), [['gave-up', 'NOT_PERMITTED']]); // no backoff, no replay
});

Deno.test('connect to a host --allow-net does not cover rejects with NOT_PERMITTED', async () => {
  const error = await connect(`http://127.0.0.2:${closedPort()}/mcp`).then(() => undefined, (e: unknown) => e);
  assert(isResilienceError(error, 'NOT_PERMITTED') || isResilienceError((error as Error).cause, 'NOT_PERMITTED'), String(error));
});

Deno.test('denoSleep waits, ends on abort with the reason, and leaves no timer behind', async () => {
  await held(denoSleep(5));
  const controller = new AbortController();
  const waiting = denoSleep(60_000, controller.signal);
  controller.abort(new Error('stop'));
  await rejects(held(waiting), /stop/);
  const aborted = new AbortController();
  aborted.abort(new Error('gone'));
  await rejects(denoSleep(60_000, aborted.signal), /gone/);
});

Deno.test('an eviction is recovered against a real mcp-chaos, with nothing left open after close', async () => {
  const chaos = await startChaos(['--dialect', 'amdahl']);
  try {
    const events: ResilienceEvent[] = [];
    const client = await connect(chaos.url, { onEvent: (e) => events.push(e) });
    try {
      await client.callTool({ name: 'echo', arguments: { text: 'before' } });
      await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'after' } }) as { content: { text: string }[] };
      assertEquals(result.content[0]!.text, 'after');
      assertEquals(events.map((e) => e.type), ['session-started', 'session-lost', 'session-started', 'session-reinitialized', 'replayed']);
    } finally {
      await client.close();
    }
  } finally {
    await chaos.stop();
  }
});

/** Each run exits within about a second and a half (one of them waits out a Retry-After of 1 s): a minute is a hang. */
const RUN_HANG_MS = 60_000;

interface BackingOffRun { readonly code: number; readonly stdout: string; readonly stderr: string }

/** test-support/backing-off-main.ts as a Deno process of its own, against `url`; a run not over within a minute has hung, and says so. */
async function runBackingOff(url: string, sleep: 'unrefd' | 'refd'): Promise<BackingOffRun> {
  const main = new URL('./test-support/backing-off-main.ts', import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '--no-prompt', '--allow-net=127.0.0.1', main, url, sleep], stdout: 'piped', stderr: 'piped', stdin: 'null',
  }).spawn();
  let hung = false;
  const timer = setTimeout(() => ((hung = true), child.kill('SIGKILL')), RUN_HANG_MS);
  try {
    const output = await child.output();
    const run = { code: output.code, stdout: new TextDecoder().decode(output.stdout), stderr: new TextDecoder().decode(output.stderr) };
    if (hung) throw new Error(`hung: backing-off-main.ts ${sleep} had not exited after ${RUN_HANG_MS / 1000} s\n${printed(run)}`);
    return run;
  } finally {
    clearTimeout(timer);
  }
}

const printed = (run: BackingOffRun) => `exit ${run.code}\nstdout:\n${run.stdout}stderr:\n${run.stderr}`;

/** The run exited with `code` having printed `stdout`; otherwise the failure shows all it printed. */
function assertRun(run: BackingOffRun, expected: { code: number; stdout: string }): void {
  assertEquals({ code: run.code, stdout: run.stdout }, expected, `expected exit ${expected.code} and stdout ${JSON.stringify(expected.stdout)}; the run printed\n${printed(run)}`);
}

Deno.test('a request backing off does not hold the process: the program exits when main returns, its retry never sent', async () => {
  const chaos = await startChaos();
  try {
    const initializes = async () => {
      const { log } = await (await fetch(`${chaos.control}/state`)).json() as { log: { rpcMethod?: string; status?: number }[] };
      return log.filter((entry) => entry.rpcMethod === 'initialize').map((entry) => entry.status);
    };
    const tooManyRequests = { kind: 'status', status: 429, retryAfter: '1', count: 1, rpcMethod: 'initialize' };
    await chaos.applyFaults([tooManyRequests]);
    assertRun(await runBackingOff(chaos.url, 'unrefd'), { code: 0, stdout: 'backed-off\nmain returns\n' });
    assertEquals(await initializes(), [429]);
    // The same program on a ref'd timer: held until the Retry-After has passed, then retried and answered.
    await chaos.applyFaults([tooManyRequests]);
    assertRun(await runBackingOff(chaos.url, 'refd'), { code: 0, stdout: 'backed-off\nmain returns\nsession-started\nanswered 200\n' });
    assertEquals(await initializes(), [429, 429, 200]);
  } finally {
    await chaos.stop();
  }
});
