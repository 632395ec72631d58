import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAnswers } from './describe-answers.ts';
import { describeModern } from './describe-modern.ts';
import { describeSessionfulRestart } from './describe-sessionful-restart.ts';
import { describeStatelessRestart } from './describe-stateless-restart.ts';
import type { TestClient } from './sdk-clients.ts';
import { startServer, type RunningServer } from './server-process.ts';
import { installedVersion, type RealServer } from './servers.ts';

/**
 * The whole suite for one real server, started once for the file and stopped by its PID at
 * the end (clients closed first, even when a test failed): its pinned version, its answer to a
 * dead session id against the fixture, and the scenarios its session model calls for.
 *
 * @example
 * // src/server-everything.test.ts
 * describeRealServer(SERVER_EVERYTHING);
 */
export function describeRealServer(server: RealServer, more?: (running: () => RunningServer, opened: TestClient[]) => void): void {
  describe(`${server.id}: ${server.package} ${server.version}`, () => {
    let running: RunningServer | undefined;
    const opened: TestClient[] = [];
    const current = () => running!;
    beforeAll(async () => {
      running = await startServer(server.launch);
    });
    afterAll(async () => {
      await Promise.all(opened.map((client) => client.close().catch(() => {})));
      await running?.stop();
    });

    it(`runs the pinned ${server.package} ${server.version}`, () => {
      expect(installedVersion(server)).toBe(server.version);
    });

    describeAnswers(server, current);
    if (server.sessions === 'per-session' || server.sessions === 'one-per-process') describeSessionfulRestart(server, current, opened);
    if (server.sessions === 'stateless') describeStatelessRestart(server, current, opened);
    if (server.sessions === 'modern') describeModern(server, current, opened);
    more?.(current, opened);

    it('kept running through every scenario (no crash)', () => {
      expect(running!.exited()).toBeUndefined();
    });
  });
}
