import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventLogger } from './event-logger.ts';
import { createResilientFetch } from './resilient-fetch.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
let second: Client | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await stopAll([client, second], [chaos]);
  chaos = client = second = undefined;
});

describe('the event logger', () => {
  it('is off unless asked for', () => {
    expect(createEventLogger(undefined)).toBeUndefined();
    expect(createEventLogger(false)).toBeUndefined();
  });

  it('writes one line per event with the runtime writer for log: true, console.error by default', () => {
    const lines: string[] = [];
    createEventLogger(true, (line) => lines.push(line))!({ type: 'session-started', session: 1, revision: '2025-11-25' });
    expect(lines).toEqual(['mcp-resilience session 1 started (revision 2025-11-25)']);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    createEventLogger(true)!({ type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN' });
    expect(error).toHaveBeenCalledExactlyOnceWith('mcp-resilience tools/call gave up: OUTCOME_UNKNOWN');
  });

  it('narrates an eviction end to end through the engine\'s log option, never showing a session id', async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const ids = new Set<string>();
    const spy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const id = response.headers.get('mcp-session-id');
      if (id) ids.add(id);
      return response;
    };
    const lines: string[] = [];
    client = new Client({ name: 'logged', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: createResilientFetch({ fetch: spy, log: (line) => lines.push(line) }) }));
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    expect(ids.size).toBe(2);
    expect(lines).toEqual([
      'mcp-resilience session 1 started (revision 2025-11-25)',
      expect.stringMatching(/^mcp-resilience session 1 lost during tools\/call \(amdahl, [a-z-]+, server up \d+ s(, suspected server bug)?\) → re-initializing$/),
      'mcp-resilience session 2 started (revision 2025-11-25)',
      'mcp-resilience session 2 replaces session 1 (lost)',
      'mcp-resilience tools/call replayed on session 2',
    ]);
    for (const id of ids) expect(lines.join('\n')).not.toContain(id);
  });

  it('tells two clients of one fetch apart: the second one\'s lines say "client 2"', async () => {
    chaos = await startChaosServer({ faults: [NO_GET_STREAM] }); // no standalone stream to race the calls to the loss
    const lines: string[] = [];
    const fetch = createResilientFetch({ log: (line) => lines.push(line) });
    const connected = async () => {
      const opened = new Client({ name: 'logged', version: '0' });
      await opened.connect(new StreamableHTTPClientTransport(new URL(chaos!.url), { fetch }));
      return opened;
    };
    client = await connected();
    second = await connected();
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client.callTool({ name: 'echo', arguments: { text: 'one' } });
    await second.callTool({ name: 'echo', arguments: { text: 'two' } });
    const of = (prefix: string) => lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
    const expected = [
      'session 1 started (revision 2025-11-25)',
      expect.stringMatching(/^session 1 lost during tools\/call \(/),
      'session 2 started (revision 2025-11-25)',
      'session 2 replaces session 1 (lost)',
      'tools/call replayed on session 2',
    ];
    expect(of('mcp-resilience client 2: ')).toEqual(expected);
    expect(of('mcp-resilience ').filter((line) => !line.startsWith('client '))).toEqual(expected);
  });
});
