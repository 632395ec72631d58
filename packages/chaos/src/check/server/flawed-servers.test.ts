import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFlawedServer, type Flaw } from '../../test-support/flawed-mcp-server.mjs';
import { McpTalk } from './mcp-talk.ts';
import type { ServerCheckName } from './server-catalogue.ts';
import { scoreServer, type ServerReport } from './score-server.ts';
import { streamKeepsAlive } from './stream-keeps-alive.ts';

// Each check fails on a server built to break it: the test-support server keeps the whole
// contract unless told to break one rule. Every server listens on 127.0.0.1 and is closed here.
const SERVER = fileURLToPath(new URL('../../test-support/flawed-mcp-server.mjs', import.meta.url));
const command = (flaws: readonly Flaw[]) => `FLAWS=${flaws.join(',')} "${process.execPath}" "${SERVER}"`;

async function scored(flaws: readonly Flaw[], options: { revision?: string } = {}): Promise<ServerReport> {
  const server = await startFlawedServer({ flaws });
  try {
    return await scoreServer({ url: server.url, ...options });
  } finally {
    await server.close();
  }
}

const check = (report: ServerReport, name: ServerCheckName) => report.checks.find((c) => c.name === name)!;

describe('the test-support server', () => {
  it('keeps the contract: every check passes, started and restarted as a command', async () => {
    const report = await scoreServer({ command: command([]) });
    const notPassed = report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.name}: ${c.status}`);
    expect(notPassed).toEqual(['stream-keeps-alive: skipped', 'no-session-id: skipped', 'unknown-method-404: skipped']);
    expect(report.requiredFailed).toBe(0);
  }, 60_000);
});

describe('each check fails on a server built to break it', () => {
  it.each<[ServerCheckName, Flaw, RegExp]>([
    ['session-id-random', 'sequential-ids', /session ids \("session-1", "session-2", …\) vary in about \d bits: guessable/],
    ['missing-session-400', 'sessionless-calls', /^POST tools\/call echo without Mcp-Session-Id → 200 .*: not 400$/],
    ['bad-protocol-version-400', 'any-protocol-version', /MCP-Protocol-Version: 1999-01-01 → 200 .*: not 400$/],
    ['unknown-session-404', 'dead-400', /^an id never issued: POST → 400 .*: not 404; GET → 400: not 404; DELETE → 400: not 404$/],
    ['unknown-session-404', 'dead-200-32600', /^an id never issued: POST → 200 \{"jsonrpc":"2.0","error":\{"code":-32600.*: not 404/],
    ['gone-jsonrpc-id', 'no-id-in-404', /^404 .*: the JSON-RPC error carries id null, not the request's \d+$/],
    ['gone-jsonrpc-body', 'text-404', /^a dead session id was answered 404 session not found: no JSON-RPC error object$/],
    ['deleted-session-404', 'delete-ignored', /^an id ended by DELETE: POST → 200 .*: not 404/],
    ['reinitialize-after-404', 'refuse-init-after-404', /^after the dead id's 404, initialize was answered 500 /],
    ['delete-ends-only-that-session', 'one-session', /^after DELETE \(→ 200\) of one session, tools\/call echo on another → 404 /],
    ['concurrent-calls', 'burst-limit', /^12 of 20 concurrent tools\/call echo were not answered, e\.g\. 429 too many calls on this session$/],
    ['gone-body', 'no-uptime', /^a dead session id was answered 404 .*: no code -32000, data.reason .*, data.server_uptime_seconds$/],
  ])('%s fails on a server that breaks it (%s)', async (name, flaw, why) => {
    const report = await scored([flaw]);
    expect(check(report, name)).toMatchObject({ status: 'failed' });
    expect(check(report, name).detail).toMatch(why);
    expect(report.requiredFailed > 0).toBe(check(report, name).required);
  }, 30_000);

  it('passes every required check of a server whose 404 says "id": null, failing only the optional JSON-RPC check (a JSON-RPC rule, not MCP\'s)', async () => {
    const report = await scored(['no-id-in-404']);
    expect(report.requiredFailed).toBe(0);
    expect(report.checks.filter((c) => c.status === 'failed').map((c) => [c.name, c.level, c.source])).toEqual([['gone-jsonrpc-id', 'optional', 'jsonrpc']]);
  }, 30_000);

  it('passes a server whose 404 is plain text on every MCP check: only the JSON-RPC body check and the seed\'s fail', async () => {
    const report = await scored(['text-404']);
    expect(report.requiredFailed).toBe(0);
    expect(report.checks.filter((c) => c.status === 'failed').map((c) => c.name)).toEqual(['gone-jsonrpc-body', 'gone-body']);
    expect(check(report, 'gone-jsonrpc-id')).toMatchObject({ status: 'skipped' });
  }, 30_000);

  it('passes a server whose random session ids are decimal digits: entropy, not an alphabet', async () => {
    const report = await scored(['decimal-ids']);
    expect(check(report, 'session-id-random')).toMatchObject({ status: 'passed', detail: expect.stringMatching(/about (9\d|\d{3}) bits of entropy/) });
    expect(report.requiredFailed).toBe(0);
  }, 30_000);

  it('fails a SHOULD-level check without failing the run, and with it under strict', async () => {
    const lax = await scored(['sessionless-calls']);
    expect(check(lax, 'missing-session-400')).toMatchObject({ status: 'failed', level: 'should', required: false });
    expect(lax.requiredFailed).toBe(0);
    const server = await startFlawedServer({ flaws: ['sessionless-calls'] });
    try {
      const strict = await scoreServer({ url: server.url, strict: true });
      expect(check(strict, 'missing-session-400')).toMatchObject({ status: 'failed', required: true });
      expect(strict.requiredFailed).toBe(1);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('restart-404 fails on a server that answers an id from before its restart 400', async () => {
    const report = await scoreServer({ command: command(['dead-400']) });
    expect(check(report, 'restart-404')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/^an id from before the restart: POST → 400 .*: not 404/) });
  }, 60_000);

  it('uptime-younger-than-session fails on a server whose uptime survives its restart, and is skipped when no uptime is sent', async () => {
    const stale = await scoreServer({ command: command(['stale-uptime']) });
    expect(check(stale, 'restart-404').status).toBe('passed');
    expect(check(stale, 'uptime-younger-than-session')).toMatchObject({
      status: 'failed', detail: expect.stringMatching(/^server_uptime_seconds 36\d\d after a restart, not less than the old session's age [\d.]+ s/),
    });
    const none = await scoreServer({ command: command(['no-uptime']) });
    expect(check(none, 'uptime-younger-than-session')).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/carried no server_uptime_seconds/) });
  }, 90_000);

  it('stream-keeps-alive passes when the open stream is use, and fails on a server that evicts a session whose GET stream is open', async () => {
    // The servers' idle budget is 1 s, on their own timers; the check waits until a session
    // without a stream has expired on the server's clock (capped at 30 s), so the verdict does not
    // depend on how fast this machine is. The budget is what the check's own requests get between
    // them (initialize → initialized → the GET stream), a few milliseconds on a quiet machine: at
    // 200 ms a loaded one let a session idle out in its handshake (ProbeError: 404).
    const IDLE_MS = 1_000;
    for (const [flaws, status, why] of [
      [[], 'passed', /the one with its GET stream open was answered$/],
      [['stream-not-use'], 'failed', /the server closed the open GET stream|the one with its GET stream open → 404/],
    ] as const) {
      const server = await startFlawedServer({ flaws, idleMs: IDLE_MS });
      try {
        const verdict = await streamKeepsAlive(new McpTalk(server.url, 10_000), IDLE_MS);
        expect(verdict).toMatchObject({ status });
        expect(verdict.detail).toMatch(why);
      } finally {
        await server.close();
      }
    }
  }, 90_000);

  it('stream-keeps-alive is skipped, saying why, without --idle-ms', async () => {
    expect(check(await scored([]), 'stream-keeps-alive')).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/^no --idle-ms/) });
  }, 30_000);

  it('no-session-id and unknown-method-404 pass on a 2026-07-28 server, and each fails on one that breaks it', async () => {
    const good = await scored(['modern']);
    expect([check(good, 'no-session-id').status, check(good, 'unknown-method-404').status, good.revision]).toEqual(['passed', 'passed', '2026-07-28']);
    const issues = await scored(['modern', 'modern-session-id'], { revision: '2026-07-28' });
    expect(check(issues, 'no-session-id')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/→ 200 with Mcp-Session-Id "[0-9a-f]+": 2026-07-28 has no sessions$/) });
    const sessionful = await scored(['modern', 'modern-session-404'], { revision: '2026-07-28' });
    expect(check(sessionful, 'unknown-method-404')).toMatchObject({
      status: 'failed', detail: expect.stringMatching(/with an Mcp-Session-Id never issued → 404 .*: not 200 \(the header must be ignored\)$/),
    });
  }, 30_000);
});
