import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect } from './index.ts';
import { createEventLogger } from './stderr-logger.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await client?.close().catch(() => {});
  await chaos?.stop();
  chaos = client = undefined;
});

describe('the stderr logger', () => {
  it('is off unless asked for', () => {
    expect(createEventLogger(undefined)).toBeUndefined();
    expect(createEventLogger(false)).toBeUndefined();
  });

  it('writes one line per event to stderr with log: true', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    createEventLogger(true)!({ type: 'session-started', session: 1, revision: '2025-11-25' });
    expect(write).toHaveBeenCalledExactlyOnceWith('mcp-resilience session 1 started (revision 2025-11-25)\n');
  });

  it('narrates an eviction end to end without ever showing a session id', async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const ids = new Set<string>();
    const spy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const id = response.headers.get('mcp-session-id');
      if (id) ids.add(id);
      return response;
    };
    const lines: string[] = [];
    client = await connect(chaos.url, { fetch: spy, log: (line) => lines.push(line) });
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    expect(ids.size).toBe(2);
    expect(lines).toEqual([
      'mcp-resilience session 1 started (revision 2025-11-25)',
      expect.stringMatching(/^mcp-resilience session 1 lost during tools\/call \(amdahl, [a-z-]+, server up \d+ s\) → re-initializing$/),
      'mcp-resilience session 2 started (revision 2025-11-25)',
      'mcp-resilience session 2 replaces session 1 (lost)',
      'mcp-resilience tools/call replayed on session 2',
    ]);
    for (const id of ids) expect(lines.join('\n')).not.toContain(id);
  });
});
