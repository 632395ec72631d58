import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from '../../chaos-server.ts';
import { SERVER_CHECKS } from './server-catalogue.ts';
import { scoreServer, type ServerReport } from './score-server.ts';

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));
/** The chaos server's idle budget in these tests: no step of the check leaves a session it will use idle that long, even on a loaded machine. */
const IDLE_MS = 2_000;

const statuses = (report: ServerReport) => Object.fromEntries(report.checks.map((c) => [c.name, c.status === 'passed' ? c.status : `${c.status}: ${c.detail}`]));
const all = (status: string, except: Record<string, string> = {}) => Object.fromEntries(SERVER_CHECKS.map((c) => [c.name, except[c.name] ?? status]));

describe('scoreServer on mcp-chaos', () => {
  let chaos: ChaosServer;
  beforeAll(async () => {
    chaos = await startChaosServer({ dialect: 'amdahl', faults: [{ kind: 'idle-budget', ms: IDLE_MS }] });
  });
  afterAll(() => chaos.stop());

  it('passes every check it can run by URL (the restart checks need a command)', async () => {
    const report = await scoreServer({ url: chaos.url, idleMs: IDLE_MS });
    const restart = 'skipped: needs --server-command: a server given by URL cannot be restarted by the check';
    const modern = 'skipped: the server negotiated 2025-11-25: the 2026-07-28 checks do not apply';
    expect(statuses(report)).toEqual(all('passed', {
      'restart-404': restart, 'uptime-younger-than-session': restart, 'no-session-id': modern, 'unknown-method-404': modern,
    }));
    expect(report).toMatchObject({ revision: '2025-11-25', work: 'tools/call echo', requiredFailed: 0 });
  }, 60_000);

  it('passes every check, required and optional, as the mcp-chaos command it starts and restarts', async () => {
    const command = `"${process.execPath}" "${CLI}" --port "$PORT" --dialect amdahl --faults '{"kind":"idle-budget","ms":${IDLE_MS}}'`;
    const report = await scoreServer({ command, idleMs: IDLE_MS });
    const modern = 'skipped: the server negotiated 2025-11-25: the 2026-07-28 checks do not apply';
    expect(statuses(report)).toEqual(all('passed', { 'no-session-id': modern, 'unknown-method-404': modern }));
    expect(report.server).toBe(command);
  }, 120_000);

  it.each([
    ['typescript-sdk', 'gone-jsonrpc-id', 'the JSON-RPC error carries id null'],
    ['python-sdk', 'gone-jsonrpc-id', 'the JSON-RPC error carries id "server-error"'],
    ['go-sdk', 'gone-jsonrpc-body', 'no JSON-RPC error object'],
    ['server-everything', 'unknown-session-404', 'POST → 400 '],
  ] as const)('where mcp-chaos speaks the %s dialect, fails %s', async (dialect, name, why) => {
    const spoken = await startChaosServer({ dialect });
    try {
      const report = await scoreServer({ url: spoken.url });
      expect(report.checks.find((c) => c.name === name)).toMatchObject({ status: 'failed', detail: expect.stringContaining(why) });
      expect(report.checks.find((c) => c.name === 'gone-body')?.status).toBe('failed');
      // A 404 is a 404: a body that JSON-RPC or the seed would word otherwise fails no MCP check.
      if (name !== 'unknown-session-404') expect(report.checks.find((c) => c.name === 'unknown-session-404')?.status).toBe('passed');
    } finally {
      await spoken.stop();
    }
  }, 30_000);

  it('scores a 2026-07-28 server (mcp-chaos --mode modern) by what it negotiates: no session id, a 404 only for an unknown method', async () => {
    const modern = await startChaosServer({ mode: 'modern' });
    try {
      const report = await scoreServer({ url: modern.url });
      const none = 'skipped: 2026-07-28 has no sessions: the session checks do not apply';
      expect(statuses(report)).toEqual(all(none, { 'no-session-id': 'passed', 'unknown-method-404': 'passed' }));
      expect(report).toMatchObject({ revision: '2026-07-28', requiredFailed: 0 });
    } finally {
      await modern.stop();
    }
  }, 60_000);
});
