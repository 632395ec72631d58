// Pastes the tables the last test run wrote (reports/NAME.md, reports/NAME.summary.md) into
// docs/frameworks.md: each framework's table between its markers, its summary row in place of
// the row that starts with the same title. Run by `pnpm --filter @mcp-resilience/frameworks tables`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const reports = fileURLToPath(new URL('../reports/', import.meta.url));
const pageFile = fileURLToPath(new URL('../../../docs/frameworks.md', import.meta.url));
let page = readFileSync(pageFile, 'utf8');
if (!existsSync(reports)) throw new Error('no reports/: run the tests first');
for (const file of readdirSync(reports).filter((f) => f.endsWith('.md') && !f.endsWith('.summary.md'))) {
  const name = file.slice(0, -3);
  const start = `<!-- table: ${name} -->\n`;
  const at = page.indexOf(start);
  const end = page.indexOf('<!-- /table -->', at);
  if (at < 0 || end < 0) throw new Error(`docs/frameworks.md has no table section for ${name}`);
  page = page.slice(0, at + start.length) + readFileSync(`${reports}${file}`, 'utf8') + page.slice(end);
  const row = readFileSync(`${reports}${name}.summary.md`, 'utf8').trimEnd();
  const title = row.split(' | ')[0];
  const lines = page.split('\n');
  const i = lines.findIndex((line) => line.startsWith(`${title} | `));
  if (i < 0) throw new Error(`docs/frameworks.md: no summary row starting "${title} |"`);
  lines[i] = row;
  page = lines.join('\n');
}
writeFileSync(pageFile, page);
console.log(`docs/frameworks.md: ${readdirSync(reports).length / 2} tables pasted`);
