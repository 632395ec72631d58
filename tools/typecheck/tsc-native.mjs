#!/usr/bin/env node
// tsc-native [tsc options], also installed as `typecheck`: TypeScript 7's tsc (the native compiler)
// with these options, in the calling package. Its build script runs `tsc-native -b`, its test script
// `typecheck -p tsconfig.test.json && vitest run`. Both emit and report as tsc 5.9 does here (the
// same JavaScript and declarations for every package), at about a quarter of the CPU.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The package's `bin` entry, beside its package.json (its exports do not list the bin). */
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const run = spawnSync(process.execPath, [tsc, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
