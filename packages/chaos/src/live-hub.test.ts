import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveFeed } from './live-feed.ts';
import { LIVE_LIMITS, LiveHub } from './live-hub.ts';
import { LIVE_STOPPED_CLOSE_CODE } from './live-view/live-schema.ts';
import { connectViewer, type Viewer } from './test-support/live-viewer.ts';

let server: Server | undefined;
let hub: LiveHub | undefined;
const viewers: Viewer[] = [];
afterEach(async () => {
  await Promise.all(viewers.splice(0).map((v) => v.close()));
  await hub?.close();
  await new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve()));
  server = hub = undefined;
});

/** A hub on a server of its own, fed by hand: the feed's events are whatever the test says. */
async function hubWithFeed(): Promise<{ feed: LiveFeed; control: string }> {
  const feed = new LiveFeed(() => 0);
  const live = new LiveHub(feed, () => feed.hello('legacy', { dialect: 'amdahl', idleBudgetMs: null, capacity: null, pendingStatus: [], pendingDrops: [] }, []));
  hub = live;
  server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => live.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { feed, control: `http://127.0.0.1:${(server.address() as { port: number }).port}/_chaos` };
}

describe('LiveHub: a viewer that does not read', () => {
  it('is dropped once more than its buffer cap waits for it; a viewer that reads gets everything and stays', async () => {
    const { feed, control } = await hubWithFeed();
    const fast = await connectViewer(control);
    const slow = await connectViewer(control);
    viewers.push(fast, slow);
    slow.socket.pause(); // stops reading: the kernel's buffers fill, then the server's
    const text = 'x'.repeat(4_000);
    const batch = 64; // ~256 KB, well under the cap: a reader keeps up
    let sent = 0;
    // Far more than loopback's socket buffers and the cap together; stops as soon as the slow one is cut.
    while (hub!.size === 2 && sent < 40_000) {
      for (let i = 0; i < batch; i++) feed.faultApplied({ kind: 'change-resource', text }, sent++);
      await fast.next('fault', (m) => m.atMs === sent - 1, Math.max(0, fast.messages.length - batch));
    }
    expect(hub!.size).toBe(1);
    expect(sent * text.length).toBeGreaterThan(LIVE_LIMITS.maxBufferedBytes);
    expect(fast.messages.filter((m) => m.type === 'fault')).toHaveLength(sent);
    expect(fast.socket.readyState).toBe(fast.socket.OPEN);
    slow.socket.resume();
    expect((await slow.closed).code).toBe(1006); // cut, not closed: nothing more was queued for it
    expect(slow.messages.filter((m) => m.type === 'fault').length).toBeLessThan(sent);
  });
});

describe('LiveHub: an orderly stop', () => {
  it('tells a viewer that reads `stopped` and closes with 1001; does not wait on one that does not read (cut after a second)', async () => {
    const { control } = await hubWithFeed();
    const reader = await connectViewer(control);
    const stuck = await connectViewer(control);
    viewers.push(reader, stuck);
    stuck.socket.pause(); // never answers the close: ws alone would wait 30 s for it
    // The hub cuts it after its own cap of a second; ws's 30 s is a hang, told as such well before.
    let guard: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      guard = setTimeout(() => reject(new Error('hung: hub.close() still waits, 10 s on, for the viewer that does not read (it cuts one after 1 s)')), 10_000);
    });
    await Promise.race([hub!.close(), hung]).finally(() => clearTimeout(guard));
    expect(hub!.size).toBe(0);
    expect(await reader.closed).toEqual({ code: LIVE_STOPPED_CLOSE_CODE, reason: 'the server stopped' });
    expect(reader.messages.at(-1)).toEqual({ type: 'stopped', atMs: 0 });
    stuck.socket.resume();
    await stuck.closed;
  });
});
