import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ChaosInputError } from '../../faults.ts';
import type { ServerReport } from './score-server.ts';
import { results, failed, passed, skipped, type ServerCheckName, type Verdict } from './server-catalogue.ts';
import { serverCheckArgs } from './server-cli.ts';
import { renderServerJunit } from './server-report-junit.ts';
import { renderServerText, serverSummaryLine } from './server-report-text.ts';

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));
const FLAWED = fileURLToPath(new URL('../../test-support/flawed-mcp-server.mjs', import.meta.url));

const verdicts = new Map<ServerCheckName, Verdict>([
  ['session-id-issued', passed('5 ids')],
  ['unknown-session-404', failed('an id never issued: POST → 400 <x> & "y": not 404')],
  ['gone-body', failed('no code -32000')],
]);
const checks = results(verdicts, skipped('needs --server-command'));
const report: ServerReport = {
  server: 'http://127.0.0.1:1/mcp', revision: '2025-11-25', work: 'tools/call echo', checks, ms: 1200,
  passed: 1, failed: 2, skipped: checks.length - 3, requiredFailed: 1,
};

describe('serverCheckArgs', () => {
  it('reads the options, and says what is wrong with a bad one', () => {
    expect(serverCheckArgs(['--server', 'http://127.0.0.1:1/mcp', '--idle-ms', '200', '--json'])).toEqual({
      json: true, options: { url: 'http://127.0.0.1:1/mcp', idleMs: 200 },
    });
    expect(serverCheckArgs(['--server-command', 'node s.js', '--port-env', 'MCP_PORT', '--path', '/', '--revision', '2026-07-28'])).toEqual({
      json: false, options: { command: 'node s.js', portEnv: 'MCP_PORT', path: '/', revision: '2026-07-28' },
    });
    expect(serverCheckArgs(['--server', '--help'])).toBe('help');
    expect(() => serverCheckArgs(['--server', 'x', '--server-command', 'y'])).toThrow(new ChaosInputError('give one of --server URL and --server-command "CMD"'));
    expect(() => serverCheckArgs(['--server', 'ftp://x'])).toThrow('--server must be an http(s) URL');
    expect(() => serverCheckArgs(['--server', 'http://x', '--idle-ms', '0'])).toThrow('--idle-ms must be an integer from 1 to 3600000');
    expect(() => serverCheckArgs(['--server', 'http://x', '--revision', '2024-01-01'])).toThrow(/--revision must be one of 2025-03-26/);
  });
});

describe('the server reports', () => {
  it('prints a line per check (✓ ✗ –, its rule and source, its title) with what proved it or why not under it, and the summary', () => {
    expect(serverSummaryLine(report)).toBe('server check: 1/2 MUST, 0/0 SHOULD, 0/1 optional, 14 skipped');
    const lines = renderServerText(report).split('\n');
    expect(lines[0]).toBe('mcp-chaos check --server: http://127.0.0.1:1/mcp (2025-11-25, work: tools/call echo, 1.2 s)');
    const under = (line: string) => lines[lines.indexOf(line) + 1];
    expect(under('  ✓ session-id-issued              MUST (MCP)          initialize issues a session id of visible ASCII (0x21–0x7E)')).toBe('      5 ids');
    expect(under('  ✗ unknown-session-404            MUST (MCP)          an id never issued is answered with status 404 (POST, GET, DELETE)'))
      .toBe('      an id never issued: POST → 400 <x> & "y": not 404');
    expect(under('  – restart-404                    MUST (MCP)          after a restart every old id is answered with status 404')).toBe('      skipped: needs --server-command');
    expect(under('  ✗ gone-body                      optional (seed)     the 404 carries -32000 with data.reason, data.action, server_uptime_seconds')).toBe('      no code -32000');
    expect(lines).toContain('  – missing-session-400            SHOULD (MCP)        a request without a session id is answered 400');
    expect(lines.at(-2)).toBe('server check: 1/2 MUST, 0/0 SHOULD, 0/1 optional, 14 skipped');
  });

  it('writes JUnit XML: a test case per check, failures typed required or optional, skips with why, text escaped', () => {
    const xml = renderServerJunit(report);
    expect(xml).toContain('<testsuite name="server check: http://127.0.0.1:1/mcp" tests="17" failures="2" skipped="14" time="1.200">');
    expect(xml).toContain('<failure message="an id never issued: POST → 400 &lt;x&gt; &amp; &quot;y&quot;: not 404" type="required"/>');
    expect(xml).toContain('<failure message="no code -32000" type="optional"/>');
    expect(xml).toContain('<testcase classname="server.restart-404" name="restart-404: after a restart every old id is answered with status 404" time="0"><skipped message="needs --server-command"/></testcase>');
  });
});

describe('mcp-chaos check --server-command', () => {
  it('starts and restarts the server, prints a line per check and the summary, writes JUnit, and exits 1 on a failed required check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-check-'));
    try {
      const run = spawnSync(process.execPath, [CLI, 'check', '--server-command', `FLAWS=dead-400 "${process.execPath}" "${FLAWED}"`, '--junit', join(dir, 'out.xml')],
        { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(1);
      const lines = run.stdout.trim().split('\n');
      const under = (name: string) => lines[lines.findIndex((l) => l.includes(`✗ ${name} `)) + 1];
      expect(lines.find((l) => l.includes('✗ unknown-session-404'))).toMatch(/MUST \(MCP\) +an id never issued is answered with status 404/);
      expect(under('unknown-session-404')).toMatch(/^ {6}an id never issued: POST → 400 /);
      expect(under('restart-404')).toMatch(/^ {6}an id from before the restart: POST → 400 /);
      expect(lines.at(-1)).toBe('server check: 5/8 MUST, 2/2 SHOULD, 0/1 optional, 6 skipped');
      expect(readFileSync(join(dir, 'out.xml'), 'utf8')).toContain('failures="4" skipped="6"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 0 with --json when every required check passed', () => {
    const run = spawnSync(process.execPath, [CLI, 'check', '--server-command', `"${process.execPath}" "${FLAWED}"`, '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ requiredFailed: 0, revision: '2025-11-25' });
    expect(run.stderr).toBe('server check: 9/9 MUST, 2/2 SHOULD, 3/3 optional, 3 skipped\n');
  });

  it('exits 2 with the usage on bad arguments', () => {
    const run = spawnSync(process.execPath, [CLI, 'check', '--server', 'not-a-url'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-chaos check: --server must be an http\(s\) URL\n\nmcp-chaos check --server — score an MCP server/);
  });
});
