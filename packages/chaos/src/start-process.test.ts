import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { describeOutput } from './output-tail.ts';
import { ProcessStartError, START_CAP_MS, startProcess } from './start-process.ts';
import { alive } from './test-support/alive.ts';

/** `node -e script` as the process under test. */
const node = (script: string) => [process.execPath, ['-e', script]] as const;

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('startProcess', { timeout: START_CAP_MS + 30_000 }, () => {
  it('is ready on the line it prints, with that line\'s value, and stops by its PID', async () => {
    const started = await startProcess(...node('console.error("warming up"); console.log("ready at 42"); setInterval(() => {}, 1_000)'), {
      ready: { line: (line) => /^ready at (\d+)$/.exec(line)?.[1] },
    });
    expect(started.ready).toBe('42');
    expect(alive(started.pid)).toBe(true);
    await started.stop();
    expect(alive(started.pid)).toBe(false);
    expect(started.output.stdout).toBe('ready at 42\n');
  });

  it('is ready once its probe answers', async () => {
    server = createServer((_, response) => response.end('up'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const started = await startProcess(...node('setInterval(() => {}, 1_000)'), {
      ready: { probe: async (signal) => (await fetch(url, { signal })).text() },
    });
    expect(started.ready).toBe('up');
    await started.stop();
  });

  it('names the command and shows its output when it exits before it is ready', async () => {
    const failed = await startProcess(...node('console.log("half a line"); console.error("cannot bind"); process.exit(3)'), {
      name: 'the server', ready: { line: () => undefined },
    }).then(() => undefined, (error: unknown) => error);
    expect(failed).toBeInstanceOf(ProcessStartError);
    expect((failed as ProcessStartError).message).toBe(
      `the server (${process.execPath} -e console.log("half a line"); console.error("cannot bind"); process.exit(3)) did not start: exited (3) before it was ready\n` +
      'stdout:\nhalf a line\nstderr:\ncannot bind',
    );
  });

  it('fails, stopped by its PID, when it says nothing within its cap', async () => {
    const failed = await startProcess(...node('setInterval(() => {}, 1_000)'), {
      name: 'the silent one', capMs: 100, ready: { probe: async () => undefined },
    }).then(() => undefined, (error: ProcessStartError) => error);
    expect(failed?.message).toMatch(/^the silent one \(.*\) did not start: nothing said it was ready within 0\.1 s\nstdout: \(nothing\)\nstderr: \(nothing\)$/);
    expect(alive(failed!.pid!)).toBe(false);
  });

  it('fails when a line says it printed what it must not', async () => {
    const failed = await startProcess(...node('console.log("Debugger listening"); setInterval(() => {}, 1_000)'), {
      ready: { line: (line) => (JSON.parse(line) as unknown) ?? undefined },
    }).then(() => undefined, (error: ProcessStartError) => error);
    expect(failed?.message).toMatch(/did not start: printed what it must not on stdout: .*JSON/);
    expect(failed?.output.stdout).toBe('Debugger listening\n');
  });

  it('fails at once on a command that cannot be spawned', async () => {
    await expect(startProcess('/no/such/command', [], { ready: { line: () => 'never' } })).rejects.toThrow(/did not start: could not be spawned: spawn \/no\/such\/command ENOENT/);
  });
});

describe('describeOutput', () => {
  it('shows the end of each stream, or that it was empty', () => {
    expect(describeOutput({ stdout: '', stderr: 'boom\n' })).toBe('stdout: (nothing)\nstderr:\nboom');
    expect(describeOutput({ stdout: 'abcdef', stderr: '' }, 3)).toBe('stdout:\n…def\nstderr: (nothing)');
  });
});
