// After `tsc`: SDK 1.x (@modelcontextprotocol/sdk) is an optional peer of the packages that run
// this, needed by `connect()` alone. An app on SDK 2.x has no 1.x, and TypeScript checking our
// declarations (skipLibCheck off) would fail on each import of its types: each such import in
// the declarations gets a `// @ts-ignore`, so that what it names is `any` there, and fully typed
// wherever SDK 1.x is installed. Usage: node scripts/optional-peer-types.mjs DIST_DIR
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const IGNORE = '// @ts-ignore -- @modelcontextprotocol/sdk (1.x) is an optional peer';
const SDK_IMPORT = /^import .* from '@modelcontextprotocol\/sdk\//;

const dist = process.argv[2];
if (!dist) throw new Error('usage: optional-peer-types.mjs DIST_DIR');
for (const name of readdirSync(dist).filter((file) => file.endsWith('.d.ts'))) {
  const path = join(dist, name);
  const lines = readFileSync(path, 'utf8').split('\n');
  const marked = lines.flatMap((line, i) => (SDK_IMPORT.test(line) && lines[i - 1] !== IGNORE ? [IGNORE, line] : [line]));
  if (marked.length !== lines.length) writeFileSync(path, marked.join('\n'));
}
