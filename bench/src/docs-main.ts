// `pnpm bench:docs [--check] [--from FILE]`: rewrites the benchmark figures README.md and
// docs/performance.md quote (between `<!-- bench:NAME -->` and `<!-- /bench -->`) from the
// committed bench/results/latest.json, or FILE. A full `pnpm bench` does the same once it has
// written latest.json. `--check` rewrites nothing: it lists what differs and exits 1 if anything does.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { COMMITTED_RESULTS, readCommittedResults, ROOT } from './committed-results.ts';
import { DOCS, docDifferences, writeDocs } from './docs.ts';

const { values } = parseArgs({ options: { check: { type: 'boolean' }, from: { type: 'string' } }, strict: true });
const from = values.from === undefined ? `${ROOT}${COMMITTED_RESULTS}` : resolve(values.from);
const results = readCommittedResults(from);
if (values.check) {
  const problems = DOCS.flatMap((doc) => docDifferences(readFileSync(`${ROOT}${doc}`, 'utf8'), doc, results, values.from ?? COMMITTED_RESULTS));
  for (const p of problems) console.log(p);
  console.log(problems.length === 0 ? `bench:docs: ${DOCS.join(' and ')} quote ${values.from ?? COMMITTED_RESULTS}` : `bench:docs: ${problems.length} figures differ; run pnpm bench:docs`);
  process.exit(problems.length === 0 ? 0 : 1);
}
const changed = writeDocs(results);
console.log(changed.length === 0
  ? `bench:docs: ${DOCS.join(' and ')} already quote ${values.from ?? COMMITTED_RESULTS} (run of ${results.date})`
  : `bench:docs: rewrote ${changed.join(' and ')} from ${values.from ?? COMMITTED_RESULTS} (run of ${results.date})`);
