import { createServer } from 'node:net';
import { isResilienceError, type ResilienceEvent } from '@mcp-resilience/core';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { CallRunner } from './call-runner.ts';
import { LineageRegistry } from './lineage-registry.ts';
import { undiciRefused } from './test-support/undici-refused.ts';
import { virtualClock } from './test-support/virtual-clock.ts';

/** A URL on 127.0.0.1 where nothing listens: every connection to it is refused, for real. */
async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/mcp`;
}

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });

function setup(clock: ReturnType<typeof virtualClock>, requestDeadlineMs = 20_000) {
  const events: ResilienceEvent[] = [];
  const engine = new Engine({ notSent: undiciRefused, now: clock.now, sleep: clock.sleep, requestDeadlineMs, onEvent: (e) => events.push(e) });
  // The engine's own initialize (a re-initialization's), through the call loop as the recovery sends it.
  const send = (signal: AbortSignal) => new CallRunner(engine, new LineageRegistry(engine).open(url), {
    url, init: { method: 'POST', headers: new Headers({ 'content-type': 'application/json' }), body: INIT, signal }, operation: { method: 'initialize' }, own: true,
  }).run();
  let url = '';
  return { events, send, at: (u: string) => (url = u) };
}

const ends = (events: readonly ResilienceEvent[]) => events.filter((e) => e.type === 'server-wait-ended').map((e) => e.type === 'server-wait-ended' && e.outcome);

describe('the engine\'s own initialize (a re-initialization) and a server that refuses connections', () => {
  it('waits for it until the wait runs out, then SERVER_UNREACHABLE', async () => {
    const clock = virtualClock();
    const { events, send, at } = setup(clock, 5_000);
    at(await refusingUrl());
    const error = await send(new AbortController().signal).catch((e: unknown) => e);
    expect(isResilienceError(error, 'SERVER_UNREACHABLE'), String(error)).toBe(true);
    expect(clock.nowMs).toBe(5_000);
    expect(ends(events)).toEqual(['deadline']);
  });

  it('ends with SERVER_UNREACHABLE when the engine\'s own deadline (requestDeadlineMs) fires in the wait', async () => {
    const clock = virtualClock({ holdAfter: 2 });
    const { events, send, at } = setup(clock);
    at(await refusingUrl());
    const deadline = new AbortController();
    const sent = send(deadline.signal);
    await clock.held;
    deadline.abort(new DOMException('The operation timed out', 'TimeoutError'));
    await expect(sent).rejects.toMatchObject({ code: 'SERVER_UNREACHABLE', details: { attempts: 2, maxWaitMs: 20_000 } });
    expect(ends(events)).toEqual(['deadline']);
  });

  it('ends with the reason of any other abort (the engine closing, a caller), as it is', async () => {
    const clock = virtualClock({ holdAfter: 1 });
    const { events, send, at } = setup(clock);
    at(await refusingUrl());
    const controller = new AbortController();
    const sent = send(controller.signal);
    await clock.held;
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    expect(ends(events)).toEqual(['aborted']);
  });
});
