import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { optionsFromArgs } from './cli-options.ts';
import { ChaosInputError } from './faults.ts';
import { START_CAP_MS, startProcess, type StartedProcess } from './start-process.ts';
import { openSession, callTool } from './test-support/raw-client.ts';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
let cli: StartedProcess<{ url: string; control: string }> | undefined;

afterEach(async () => {
  await cli?.stop();
  cli = undefined;
});

/** The CLI as a process, once it has printed where it listens (its first stdout line). */
async function startCli(args: string[]): Promise<{ url: string; control: string }> {
  cli = await startProcess(process.execPath, [CLI, ...args], {
    name: 'mcp-chaos', ready: { line: (line, stream) => (stream === 'stdout' ? (JSON.parse(line) as { url: string; control: string }) : undefined) },
  });
  return cli.ready;
}

// Each test starts the CLI: its time is above the start's cap, so that "did not start" is what fails.
describe('mcp-chaos', { timeout: START_CAP_MS + 30_000 }, () => {
  it('prints one JSON line with the endpoint and the control API, and serves them', async () => {
    const { url, control } = await startCli(['--port', '0', '--dialect', 'amdahl']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(control).toBe(url.replace('/mcp', '/_chaos'));
    const session = await openSession(url);
    await fetch(`${control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'evict', session: 'all' }) });
    const reply = await callTool(url, session, 'echo', { text: 'x' });
    expect(reply.messages[0]).toMatchObject({ error: { code: -32000, data: { reason: 'session_not_found' } } });
  });

  it('stops on SIGTERM', async () => {
    await startCli([]);
    const exited = new Promise<number | null>((resolve) => cli!.child.once('exit', resolve));
    process.kill(cli!.pid, 'SIGTERM');
    expect(await exited).toBe(0);
  });

  it('takes a schedule file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-chaos-'));
    const file = join(dir, 'schedule.json');
    writeFileSync(file, JSON.stringify([{ atMs: 0, fault: { kind: 'status', status: 503, retryAfter: '2' } }]));
    const { url } = await startCli(['--schedule', file]);
    const reply = await fetch(url, { method: 'POST', body: '{}' });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('2');
  });

  it('starts fresh servers over HTTP (POST {control}/servers) and stops them with DELETE, all in its one process', async () => {
    const { control } = await startCli(['--control-origin', 'http://127.0.0.1:5173', '--control-origin', 'http://localhost:8000']);
    const created = await fetch(`${control}/servers`, { method: 'POST', body: JSON.stringify({ dialect: 'go-sdk' }) });
    expect(created.status).toBe(201);
    const server = (await created.json()) as { url: string; control: string };
    const session = await openSession(server.url);
    await fetch(`${server.control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'evict', session: 'all' }) });
    const reply = await callTool(server.url, session, 'echo', { text: 'x' });
    expect(reply.text).toBe('session not found\n');
    for (const origin of ['http://127.0.0.1:5173', 'http://localhost:8000']) {
      const state = await fetch(`${server.control}/state`, { headers: { origin } });
      expect(state.headers.get('access-control-allow-origin')).toBe(origin);
    }
    expect((await fetch(`${control}/state`, { headers: { origin: 'http://127.0.0.1:5174' } })).status).toBe(403);
    expect((await fetch(server.control, { method: 'DELETE' })).status).toBe(200);
    await expect(fetch(`${server.control}/state`)).rejects.toThrow();
  });

  it('is linked through a bin file that exists before the build and runs the built CLI', () => {
    const bin = new URL('../bin/mcp-chaos.js', import.meta.url).pathname;
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { bin: Record<string, string> };
    expect(manifest.bin['mcp-chaos']).toBe('./bin/mcp-chaos.js');
    const run = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^mcp-chaos — /);
    expect(run.stdout).toContain('--control-origin');
  });

  it('refuses bad arguments with a clear message and exit code 2', () => {
    // Each is refused by the option reader (in process: five more node processes cost seconds on a loaded machine)…
    for (const args of [['--dialect', 'cobol'], ['--port', '70000'], ['--faults', '{'], ['--mode', 'retro'], ['--bogus'], ['--task-binding', 'forever']]) {
      expect(() => optionsFromArgs(args), args.join(' ')).toThrow();
    }
    // … and a refusal, as the process shows it: a clear message on stderr and exit code 2.
    const run = spawnSync(process.execPath, [CLI, '--dialect', 'cobol'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-chaos: /);
  }, 60_000);
});

describe('optionsFromArgs', () => {
  it('reads every option', () => {
    expect(optionsFromArgs(['--port', '0', '--host', '127.0.0.1', '--mode', 'modern', '--dialect', 'go-sdk',
      '--faults', '[{"kind":"capacity","max":2}]', '--no-expose-session-id', '--json-responses', '--task-binding', 'server'])).toEqual({
      port: 0, host: '127.0.0.1', mode: 'modern', dialect: 'go-sdk', faults: [{ kind: 'capacity', max: 2 }], exposeSessionId: false, jsonResponses: true,
      taskBinding: 'server',
    });
    expect(optionsFromArgs(['--upstream', 'http://127.0.0.1:9/mcp'])).toEqual({ port: 0, upstream: 'http://127.0.0.1:9/mcp' });
    expect(optionsFromArgs(['--help'])).toBe('help');
    expect(optionsFromArgs(['--control-origin', 'http://127.0.0.1:5173', '--control-origin', 'http://localhost:8000/'])).toEqual({
      port: 0, controlOrigins: ['http://127.0.0.1:5173', 'http://localhost:8000'],
    });
    for (const origin of ['*', 'null', 'http://127.0.0.1:5173/page']) {
      expect(() => optionsFromArgs(['--control-origin', origin]), origin).toThrow(ChaosInputError);
    }
  });
});
