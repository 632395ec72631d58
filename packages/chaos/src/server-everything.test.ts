import { afterAll, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { startServerEverything, type ServerEverything } from './server-everything.ts';
import { ProcessStartError } from './start-process.ts';
import { callTool, openSession, resultText } from './test-support/raw-client.ts';

const started: { stop(): Promise<void> }[] = [];
afterAll(() => Promise.all(started.map((s) => s.stop())));

describe('startServerEverything', () => {
  it('is ready once bound to its port, never on the answers of another server there', async () => {
    const other: ChaosServer = await startChaosServer({});
    started.push(other);
    const port = Number(new URL(other.url).port);
    const start = startServerEverything({ port });
    await expect(start).rejects.toBeInstanceOf(ProcessStartError);
    await expect(start).rejects.toThrow(/already in use/);
  }, 90_000);

  it('answers as server-everything at the URL it gives', async () => {
    const upstream: ServerEverything = await startServerEverything();
    started.push(upstream);
    const session = await openSession(upstream.url);
    expect(resultText(await callTool(upstream.url, session, 'echo', { message: 'mine' }))).toContain('mine');
  }, 90_000);
});
