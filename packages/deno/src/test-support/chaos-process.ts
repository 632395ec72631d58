// An mcp-chaos process on 127.0.0.1 for Deno's tests, started with `node` (needs --allow-run=node)
// and stopped through its handle by the test that started it. Ready when it prints where it
// listens; a minute without that is "did not start", told with what it printed.
const BIN = new URL('../../../chaos/bin/mcp-chaos.js', import.meta.url).pathname;
/** A loaded 2-core machine was seen to need more than 15 s for mcp-chaos to listen: a minute means it did not start. */
const START_WITHIN_MS = 60_000;
const TERM_WITHIN_MS = 5_000;
/** How much of each stream a failure shows: the end, where a process says why it stopped. */
const TAIL_CHARS = 4_000;

export interface ChaosProcess {
  readonly url: string;
  readonly control: string;
  readonly pid: number;
  applyFaults(faults: unknown): Promise<void>;
  stop(): Promise<void>;
}

/** What `work` comes to, or `undefined` when `ms` pass first; leaves no timer behind. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads `stream` to its end, keeping its last characters in `kept.text` and handing each chunk to `onChunk`. */
async function keepTail(stream: ReadableStream<Uint8Array>, kept: { text: string }, onChunk: (text: string) => void = () => {}): Promise<void> {
  try {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      kept.text = (kept.text + text).slice(-TAIL_CHARS);
      onChunk(text);
    }
  } catch {
    // A pipe that broke ends the output there: what was kept is what a failure shows.
  }
}

const shown = (name: string, text: string) => (text === '' ? `${name}: (nothing)` : `${name}:\n${text.trimEnd()}`);

/**
 * Starts `node mcp-chaos.js --host 127.0.0.1 --port 0 …args` and resolves once it has printed where it
 * listens (its first stdout line). One that exits first, or says nothing for a minute, is stopped
 * and the start fails with the command and the end of its stdout and stderr. Its stderr goes on to
 * the test's once it listens.
 *
 * @example
 * const chaos = await startChaos(['--dialect', 'amdahl']);
 * await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
 * await chaos.stop();
 */
export async function startChaos(args: readonly string[] = []): Promise<ChaosProcess> {
  const argv = [BIN, '--host', '127.0.0.1', '--port', '0', ...args];
  const command = `mcp-chaos (node ${argv.join(' ')})`;
  const child = new Deno.Command('node', { args: argv, stdout: 'piped', stderr: 'piped', stdin: 'null' }).spawn();
  let exited = false;
  void child.status.then(() => (exited = true));
  const stdout = { text: '' };
  const stderr = { text: '' };
  let listening = false;
  let firstLine: (line: string) => void = () => {};
  const printed = new Promise<string>((resolve) => (firstLine = resolve));
  const reading = Promise.all([
    keepTail(child.stdout, stdout, () => stdout.text.includes('\n') && firstLine(stdout.text.split('\n')[0]!)),
    keepTail(child.stderr, stderr, (text) => void (listening && Deno.stderr.writeSync(new TextEncoder().encode(text)))),
  ]);
  // Through its handle: Deno.kill(pid) needs an unrestricted --allow-run, the child's own kill()
  // does not (with --allow-run=node, Deno.kill throws NotCapable and the process lives on).
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      if ((await within(child.status, TERM_WITHIN_MS)) === undefined && !exited) child.kill('SIGKILL');
    }
    await child.status;
    await reading;
  };
  // Once its output has all been read (so that the message shows its last words).
  const ended = reading.then(() => child.status).then(({ code, signal }) => `exited (${code}${signal ? `, ${signal}` : ''}) before it listened`);
  const first = await within(Promise.race([printed.then((line) => ({ line })), ended.then((why) => ({ why }))]), START_WITHIN_MS);
  let where: { url?: unknown; control?: unknown } = {};
  try {
    if (first && 'line' in first) where = JSON.parse(first.line) as typeof where;
  } catch {
    // Told below: it printed something else first.
  }
  if (typeof where.url !== 'string' || typeof where.control !== 'string') {
    await stop();
    const reason = first === undefined ? `said nothing within ${START_WITHIN_MS / 1000} s` : 'why' in first ? first.why : `printed something else first: ${first.line}`;
    throw new Error(`${command} did not start: ${reason}\n${shown('stdout', stdout.text)}\n${shown('stderr', stderr.text)}`);
  }
  listening = true;
  const { url, control } = where as { url: string; control: string };
  return {
    url, control, pid: child.pid, stop,
    async applyFaults(faults) {
      const response = await fetch(`${control}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`faults refused: HTTP ${response.status}`);
    },
  };
}

/** A 127.0.0.1 port nothing listens on: bound, then released. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
