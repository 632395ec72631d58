// @arethetypeswrong/cli's verdict with its esm-only profile, for every tarball given, in one
// process: its core's analysis of the tarball (as `attw file.tgz` makes it), its exit-code rule
// and its profile (profiles.js: the node10 and node16-from-CJS resolutions ignored), with one
// TypeScript load for all instead of one CLI process each. Plain Node, outside vitest, whose
// workers would resolve @arethetypeswrong/core to its TypeScript sources ("development").
// Usage: node attw-esm-only.mjs <tarball>…   Prints JSON: { [tarball]: { exitCode, report } }.
import { readFileSync } from 'node:fs';
import { getExitCode } from '@arethetypeswrong/cli/internal/getExitCode';
import { typed } from '@arethetypeswrong/cli/internal/render';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';

const ESM_ONLY = { ignoreResolutions: ['node10', 'node16-cjs'] };

const results = {};
for (const tarball of process.argv.slice(2)) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))));
  results[tarball] = analysis.types
    ? { exitCode: getExitCode(analysis, ESM_ONLY), report: await typed(analysis, { ...ESM_ONLY, format: 'ascii', emoji: false }) }
    : { exitCode: 1, report: 'the package has no types' };
}
console.log(JSON.stringify(results));
