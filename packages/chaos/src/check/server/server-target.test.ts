import { describe, expect, it } from 'vitest';
import { startTarget } from './server-target.ts';

/**
 * A server that answers every request with its PID and, on SIGTERM, keeps listening 400 ms
 * before it exits (a graceful shutdown): the shell that started it is gone long before.
 */
const SLOW_TO_DIE = `"${process.execPath}" -e '
  const server = require("node:http").createServer((req, res) => res.end(String(process.pid)));
  server.listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => setTimeout(() => process.exit(0), 400));
'`;

/** The same, ignoring SIGTERM altogether. */
const DEAF = `"${process.execPath}" -e '
  require("node:http").createServer((req, res) => res.end(String(process.pid))).listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => {});
'`;

const pidAt = async (url: string) => (await fetch(url, { headers: { connection: 'close' } }).catch(() => fetch(url))).text();
const refused = (url: string) => fetch(url).then(() => false, () => true);

describe('startTarget with a command', () => {
  it('restarts onto a new process: the old one, still listening after its shell exited, is never taken for the new one', async () => {
    const target = await startTarget({ command: SLOW_TO_DIE, path: '/' });
    try {
      const before = await pidAt(target.url);
      await target.restart!();
      const after = await pidAt(target.url);
      expect(after).not.toBe(before);
    } finally {
      await target.stop();
    }
    expect(await refused(target.url)).toBe(true);
  }, 30_000);

  it('stops a server that ignores SIGTERM: SIGKILL once its port still answers 5 s after its shell is gone', async () => {
    const target = await startTarget({ command: DEAF, path: '/' });
    await target.stop();
    expect(await refused(target.url)).toBe(true);
  }, 30_000);
});
