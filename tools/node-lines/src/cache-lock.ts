import { watch } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { NodeLineError } from './node-line-error.ts';

/** Whether the process `pid` still runs (a PID we may not signal runs too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The PID in a lock file; undefined while its holder has created it but not yet written its PID. */
async function holder(lock: string): Promise<number | undefined> {
  const text = await readFile(lock, 'utf8').catch(() => '');
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * Runs `work` in one process at a time across processes, unless `done()` says it is done already:
 * the lock is a file created exclusively next to what `work` makes, holding its holder's PID. A
 * process that finds it taken waits for a change in that folder (the lock removed, the work renamed
 * into place) by `fs.watch`, not by polling, up to `capMs`; a lock whose holder no longer runs is
 * taken over. What `work` makes must appear by an atomic rename, so that `done()` never sees half.
 *
 * @example
 * await once(`${dir}/x.lock`, () => existsSync(`${dir}/x`), () => makeX(dir), 300_000);
 */
export async function once(lock: string, done: () => boolean, work: () => Promise<void>, capMs: number): Promise<void> {
  const deadline = performance.now() + capMs;
  let changed = false;
  let wake: (() => void) | undefined;
  // Watching starts before the first look, so that no change between a look and the wait is missed.
  const watcher = watch(dirname(lock), (_, file) => {
    if (file === null || file === basename(lock) || !file.endsWith('.lock')) (changed = true), wake?.();
  });
  try {
    for (;;) {
      if (done()) return;
      const file = await open(lock, 'wx').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return undefined;
        throw error;
      });
      if (file) {
        try {
          await file.writeFile(String(process.pid));
          await file.close();
          if (!done()) await work();
          return;
        } finally {
          await rm(lock, { force: true });
        }
      }
      const pid = await holder(lock);
      if (pid !== undefined && !alive(pid)) {
        await rm(lock, { force: true }); // its holder died holding it
        continue;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new NodeLineError('LOCK_TIMEOUT', `${lock} is held by process ${pid ?? '(starting)'}, still running after ${capMs / 1000} s`);
      if (!changed) {
        await new Promise<void>((resolve) => {
          const cap = setTimeout(resolve, left);
          wake = () => (clearTimeout(cap), resolve());
        });
      }
      changed = false;
      wake = undefined;
    }
  } finally {
    watcher.close();
  }
}
