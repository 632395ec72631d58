import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ChaosInputError } from '../faults.ts';
import { checkArgs } from './check-cli.ts';
import { renderJunit } from './report-junit.ts';
import { renderText, summaryLine } from './report-text.ts';
import type { CheckReport } from './run-check.ts';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const RAW_CLIENT = `node ${fileURLToPath(new URL('../test-support/churn-clients/raw-client.mjs', import.meta.url))}`;

const lost = { seq: 4, connection: 2, startMs: 30, endMs: 35, httpMethod: 'POST', rpcMethod: 'tools/call', call: 'echo {"text":"c2"}', session: 'sid-1a2b', status: 404,
  body: '{"jsonrpc":"2.0","id":4,"error":{"code":-32001,"message":"Session not found"}}' };
const report: CheckReport = {
  client: 'node c.mjs', ms: 1500, checks: { passed: 2, total: 3 }, scenariosPassed: 1, scenariosRun: 2, requiredFailed: 1, varying: 0,
  scenarios: [
    { name: 'restart', title: 't', revision: '2025-11-25', status: 'passed', outcomes: [], wire: [], ms: 900, runs: 1, cost: { recovered: true, requests: 3, ms: 12 },
      checks: [{ name: 'reinitialized', passed: true, required: true, source: 'MCP', detail: 'request 5 (POST initialize) opened a new session' }] },
    { name: 'gone-go-sdk', title: 't', revision: '2025-11-25', status: 'failed', outcomes: [], wire: [lost], ms: 800, runs: 1, cost: { recovered: false, requests: 0, ms: 0 },
      checks: [{ name: 'reinitialized', passed: false, required: true, source: 'MCP', detail: 'no initialize <after> & "so"', requests: [4], hint: 'Send initialize.' },
        { name: 'no-hang', passed: true, required: true, source: 'seed', detail: 'every call ended' }] },
    { name: 'stateless-2026', title: 't', revision: '2026-07-28', status: 'skipped', skipped: 'no 2026', outcomes: [], wire: [], ms: 300, runs: 1, checks: [] },
  ],
};

describe('checkArgs', () => {
  it('reads the options, and says what is wrong with a bad one', () => {
    expect(checkArgs(['--client', 'node c.mjs', '--scenario', 'restart', '--json', '--concurrency', '2'])).toMatchObject({
      json: true, options: { client: 'node c.mjs', concurrency: 2, callTimeoutMs: 15000, capMs: 60000, repeat: 1, scenarios: [{ name: 'restart' }] },
    });
    expect(checkArgs(['--client', 'x', '--strict', '--repeat', '3'])).toMatchObject({ options: { strict: true, repeat: 3 } });
    expect(() => checkArgs([])).toThrow(new ChaosInputError('--client "CMD" is required'));
    expect(() => checkArgs(['--client', 'x', '--scenario', 'nope'])).toThrow('no scenario nope (--list names them)');
    expect(() => checkArgs(['--client', 'x', '--concurrency', '0'])).toThrow('--concurrency must be an integer from 1 to 32');
  });
});

describe('the reports', () => {
  it('ends with the one-line summary, and lists each check under its scenario: what proved it, or the failing request, its answer and the fix', () => {
    expect(summaryLine(report)).toBe('churn check: 2/3 checks, 1/2 scenarios, 1 skipped');
    expect(renderText(report).split('\n').slice(1)).toEqual([
      '  ✓ restart         1/1 checks    3 requests, 12 ms',
      '      ✓ re-initialized without the old id [MCP]: request 5 (POST initialize) opened a new session',
      '  ✗ gone-go-sdk     1/2 checks    not recovered',
      '      ✗ re-initialized without the old id [MCP]: no initialize <after> & "so"',
      '          request 4: POST tools/call {"text":"c2"} [session sid-1a2b, connection 2] → 404 {"jsonrpc":"2.0","id":4,"error":{"code":-32001,"message":"Session not found"}}',
      '          fix: Send initialize.',
      '      ✓ no call hung until its timeout [seed]: every call ended',
      '  - stateless-2026  skipped: no 2026',
      'churn check: 2/3 checks, 1/2 scenarios, 1 skipped',
      '',
    ]);
  });

  it('writes JUnit XML: a test case per check, failures and skips marked, text escaped', () => {
    const xml = renderJunit(report);
    expect(xml).toContain('<testsuite name="churn check: node c.mjs" tests="4" failures="1" skipped="1"');
    expect(xml).toContain('<testcase classname="churn.gone-go-sdk" name="gone-go-sdk: re-initialized without the old id" time="0.800"><failure message="no initialize &lt;after&gt; &amp; &quot;so&quot; (fix: Send initialize.)" type="required"/></testcase>');
    expect(xml).toContain('<skipped message="no 2026"/>');
  });
});

describe('mcp-chaos check', () => {
  it('runs the chosen scenarios, writes JUnit, prints the table and the summary, and exits 1 on a failed required check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'churn-check-'));
    try {
      const run = spawnSync(process.execPath, [CLI, 'check', '--client', RAW_CLIENT, '--scenario', 'gone-go-sdk', '--scenario', 'forbidden-403', '--junit', join(dir, 'out.xml')],
        { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(1);
      const lines = run.stdout.trim().split('\n');
      expect(lines.at(-1)).toBe('churn check: 6/9 checks, 1/2 scenarios');
      expect(lines.find((l) => l.includes('✗ gone-go-sdk'))).toMatch(/2\/5 checks +not recovered$/);
      expect(readFileSync(join(dir, 'out.xml'), 'utf8')).toContain('failures="3"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with the usage on bad arguments', () => {
    const run = spawnSync(process.execPath, [CLI, 'check', '--scenario', 'restart'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-chaos check: --client "CMD" is required\n\nmcp-chaos check — score an MCP client/);
  });
});
