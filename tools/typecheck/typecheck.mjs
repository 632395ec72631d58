#!/usr/bin/env node
// typecheck [tsc options]: TypeScript 7's tsc with these options, in the calling package (its test
// script: `typecheck -p tsconfig.test.json && vitest run`). The package's own `tsc` stays 5.9 and
// builds; this one only checks (the test configurations set noEmit), at about a quarter of 5.9's
// CPU: every test configuration of the repository took 96 s of CPU with 5.9 and 24 s with 7.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The package's `bin` entry, beside its package.json (its exports do not list the bin). */
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const run = spawnSync(process.execPath, [tsc, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
