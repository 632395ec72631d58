import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './soak.ts';

/** The soak command's arguments. */
export interface SoakArgs {
  readonly short: boolean;
  readonly calls: number;
  readonly seed: number;
  readonly clients: number;
  readonly sleepers: number;
  readonly bucketMs: number;
  readonly deadlineMs?: number;
  /** Where the JSON report goes; default `bench/results/soak.json` for a full run, else `bench/results/local/`. */
  readonly out?: string;
}

/** The calls of a full soak (`pnpm soak`), the one whose report is committed; and of `--short`. */
export const SOAK_FULL_CALLS = 20_000;
export const SOAK_SHORT_CALLS = 1_500;

/**
 * The soak command's usage text.
 *
 * @example
 * console.log(SOAK_USAGE);
 */
export const SOAK_USAGE = `usage: soak-main [--short] [--calls N] [--seed N] [--clients N] [--sleepers N] [--bucket-ms N] [--deadline-s N] [--out FILE]
  --short       a short soak for CI: ${SOAK_SHORT_CALLS} calls (default ${SOAK_FULL_CALLS}), report in results/local/soak-short.json
  --calls N     tool calls to make in all
  --seed N      seeds the fault schedule, the workload and the jitter (default ${DEFAULT_SEED})
  --clients N   busy SDK clients, each with its own engine and session (default 4)
  --sleepers N  quiet SDK clients, one call every 1.5-2.5 s: idle expiry and capacity eviction take theirs (default 2)
  --bucket-ms N width of a timeline slice (default 250 with --short, else 1000)
  --deadline-s N  no new call after this long (default 3 times the planned length, at least 60 s)
  --out FILE    where to write the JSON report (default: results/soak.json for a full run, else results/local/)`;

const INTEGER = /^\d+$/;

/**
 * Reads the soak command's arguments; throws an Error saying what is wrong.
 *
 * @example
 * parseSoakArgs(['--short', '--seed', '7']) // { short: true, calls: 1500, seed: 7, clients: 4, sleepers: 2, bucketMs: 250 }
 */
export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const text = { type: 'string' } as const;
  let parsed: Record<string, string | boolean | undefined>;
  try {
    parsed = parseArgs({
      args: [...argv], strict: true,
      options: { short: { type: 'boolean' }, calls: text, seed: text, clients: text, sleepers: text, 'bucket-ms': text, 'deadline-s': text, out: text },
    }).values;
  } catch (error) {
    throw new Error(`unknown argument or missing value: ${(error as Error).message}`);
  }
  const short = parsed.short === true;
  const int = (name: string, min: number, max: number, fallback: number): number => {
    const raw = parsed[name];
    if (typeof raw !== 'string') return fallback;
    const n = Number(raw);
    if (!INTEGER.test(raw) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  const deadline = parsed['deadline-s'] === undefined ? undefined : int('deadline-s', 1, 86_400, 0) * 1000;
  const out = typeof parsed.out === 'string' ? parsed.out : undefined;
  return {
    short,
    calls: int('calls', 1, 10_000_000, short ? SOAK_SHORT_CALLS : SOAK_FULL_CALLS),
    seed: int('seed', 0, 4_294_967_295, DEFAULT_SEED),
    clients: int('clients', 1, 64, 4),
    sleepers: int('sleepers', 1, 64, 2),
    bucketMs: int('bucket-ms', 10, 3_600_000, short ? 250 : 1_000),
    ...(deadline === undefined ? {} : { deadlineMs: deadline }),
    ...(out === undefined ? {} : { out }),
  };
}
