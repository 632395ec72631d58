import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { DocBlock } from './doc-blocks.ts';

/** The URL the docs' examples use for a server: the test puts its own mcp-chaos's URL in its place. */
export const DOC_URL = 'http://127.0.0.1:3001/mcp';
/** The docs' server origin (`${DOC_ORIGIN}/_chaos/faults` and the like): the test's server's origin takes its place. */
export const DOC_ORIGIN = 'http://127.0.0.1:3001';

/** How long an example may run before it counts as hanging (a process that never exits). */
export const HANG_CAP_MS = 20_000;

/** What one run of an example gave. */
export interface ExampleRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly hung: boolean;
}

/**
 * The example as a program: TypeScript made JavaScript (types stripped, nothing else), and the
 * docs' URL (`DOC_URL`) replaced by the server's.
 *
 * @example
 * programOf({ language: 'js', code: `connect('${DOC_URL}')` } as DocBlock, 'http://127.0.0.1:4000/mcp'); // "connect('http://127.0.0.1:4000/mcp')"
 */
export function programOf(block: DocBlock, url: string): string {
  const code = block.code.replaceAll(DOC_URL, url).replaceAll(DOC_ORIGIN, new URL(url).origin);
  if (!/^(ts|typescript|tsx)$/.test(block.language)) return code;
  return ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
}

/**
 * Runs an example with node in `dir` (where its imports resolve), the server's URL as its
 * argument (`process.argv[2]`), killed after `capMs` (`HANG_CAP_MS` unless told).
 *
 * @example
 * const run = await runExample(block, chaos.url, EXAMPLES_DIR); // { status: 0, stdout: 'hi\n', … }
 */
export function runExample(block: DocBlock, url: string, dir: string, capMs = HANG_CAP_MS): Promise<ExampleRun> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${block.doc.replace(/[^a-z0-9]+/gi, '-')}-${block.line}.mjs`);
  writeFileSync(file, programOf(block, url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, url], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk; });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk; });
    const timer = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, capMs);
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr, hung }); });
  });
}
