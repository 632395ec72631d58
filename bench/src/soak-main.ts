#!/usr/bin/env node
/**
 * The chaos soak (`pnpm soak`, `pnpm soak --short` in CI): runs {@link runSoak}, prints a
 * summary, writes the JSON report to `bench/results/soak.json` (a full run; a short or resized
 * one to `bench/results/local/`, git-ignored), and exits
 * 1 when a goal is not met (2 on bad arguments).
 *
 * @example
 * // node bench/dist/soak-main.js --short --seed 7
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultResultsPath } from './results-path.ts';
import { parseSoakArgs, SOAK_FULL_CALLS, SOAK_USAGE, type SoakArgs } from './soak-args.ts';
import { formatSummary } from './soak-summary.ts';
import { runSoak } from './soak.ts';

function argsOrExit(): SoakArgs {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(SOAK_USAGE);
    process.exit(0);
  }
  try {
    return parseSoakArgs(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${SOAK_USAGE}`);
    process.exit(2);
  }
}

const args = argsOrExit();
const out = resolve(args.out ?? defaultResultsPath('soak', { full: !args.short && args.calls === SOAK_FULL_CALLS, short: args.short }));
let shown = 0;
try {
  const report = await runSoak({
    calls: args.calls, seed: args.seed, clients: args.clients, sleepers: args.sleepers, bucketMs: args.bucketMs,
    ...(args.deadlineMs === undefined ? {} : { deadlineMs: args.deadlineMs }),
    onProgress: (done, total) => {
      const tenth = Math.floor((done * 10) / total);
      if (tenth > shown && done < total) console.error(`soak: ${done}/${total} calls`), (shown = tenth);
    },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ command: args.short ? 'soak --short' : 'soak', ...report }, null, 2)}\n`);
  console.log(formatSummary(report, out));
  // Exit now: a straggler (an abandoned hung call) must not keep the soak from ending.
  process.exit(report.passed ? 0 : 1);
} catch (error) {
  console.error('soak failed to run:', error);
  process.exit(1);
}
