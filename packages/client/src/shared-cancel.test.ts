import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sleep } from './ports.ts';
import { createResilientFetch, type ResilientFetch } from './resilient-fetch.ts';
import { startHeaderLog, type HeaderLog } from './test-support/header-log.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';

let chaos: ChaosServer | undefined;
let log: HeaderLog | undefined;
const closing: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(closing.splice(0), [log, chaos]).then(() => (chaos = log = undefined)));

const MODERN = '2026-07-28';

/** A 2026-07-28 request as a client sends it (no session: every client of the fetch shares the endpoint's lineage). */
function modern(id: number | undefined, method: string, params: Record<string, unknown>, name?: string): RequestInit {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const message = { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params: { ...params, _meta: meta } };
  return {
    method: 'POST', body: JSON.stringify(message),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
  };
}

async function textOf(response: Response): Promise<string | undefined> {
  const body = await response.text();
  const json = body.startsWith('{') ? body : body.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).find((l) => l.includes('"result"')) ?? '{}';
  return (JSON.parse(json) as { result?: { content?: { text: string }[] } }).result?.content?.[0]?.text;
}

describe('a shared fetch on a server without sessions (2026-07-28): one client\'s notifications/cancelled', () => {
  it('never ends another client\'s call that happens to have the same JSON-RPC id', async () => {
    chaos = await startChaosServer({ mode: 'modern' });
    log = await startHeaderLog(chaos.url);
    const refused = new Set<string>();
    // Each client's first tools/call meets a 503 (nothing ran): the engine backs off, then sends it again.
    log.intercept((r) => {
      const text = (r.params?.arguments as { text?: string } | undefined)?.text;
      if (r.rpcMethod !== 'tools/call' || text === undefined || refused.has(text)) return undefined;
      refused.add(text);
      return { status: 503, headers: { 'retry-after': '3' }, body: '' };
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const sleep: Sleep = (ms, signal) => new Promise<void>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (ms < 3_000) return;
      waiting++;
      void released.then(resolve);
    });
    const fetch: ResilientFetch = createResilientFetch({ sleep });
    closing.push(fetch);
    const url = log.url;
    // Client A's call 1, then client B's call 1 (two SDK clients count their ids alike): both wait out the 503.
    const a = fetch(url, modern(1, 'tools/call', { name: 'echo', arguments: { text: 'A' } }, 'echo'));
    a.catch(() => {});
    await until(() => waiting === 1, 'A backing off');
    const b = fetch(url, modern(1, 'tools/call', { name: 'echo', arguments: { text: 'B' } }, 'echo'));
    b.catch(() => {});
    await until(() => waiting === 2, 'B backing off');
    // Client A gives up on its call 1.
    await fetch(url, modern(undefined, 'notifications/cancelled', { requestId: 1, reason: 'A timed out' }));
    release();
    // B never cancelled anything: its call is answered.
    const answer = await b.then(textOf, (error: unknown) => `rejected: ${String((error as { code?: string }).code ?? error)}`);
    expect(answer).toBe('B');
    await a.catch(() => {});
  });
});
