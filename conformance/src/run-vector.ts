/**
 * The vector runner: maps a parsed vector file onto core and reports each case. It uses no
 * runtime API (no file system, no Node globals), so Node, Deno, Workers and browsers run the
 * same vectors through the same code; each runtime only has to load the JSON.
 *
 * @module
 */
import { KNOWN_REVISIONS } from '@mcp-resilience/core';
import { CORS_CHECKERS } from './check-cors.ts';
import { DECISION_CHECKERS, type Checker } from './check-decisions.ts';
import { SESSION_CHECKERS } from './check-sessions.ts';
import { TASK_CHECKERS } from './check-tasks.ts';
import { deepEqual } from './deep-equal.ts';
import { fail, list, need, onlyKeys, record, VectorError } from './json-input.ts';

export { VectorError } from './json-input.ts';
export type { Checker } from './check-decisions.ts';

/** Every area a vector file may name, with the check that runs its cases. */
export const CHECKERS: Readonly<Record<string, Checker>> = { ...DECISION_CHECKERS, ...SESSION_CHECKERS, ...CORS_CHECKERS, ...TASK_CHECKERS };

/** The areas, in a stable order. */
export const AREAS: readonly string[] = Object.keys(CHECKERS);

/** Areas whose files are grouped by revision (else the file's revision is `any`). */
const BY_REVISION = new Set(['classify', 'decide', 'tasks']);
/** The group of revisions outside the table (dated or not) and of a missing revision. */
export const UNKNOWN_REVISIONS = 'unknown';

/** One case of a vector file. */
export interface VectorCase {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly expect: Record<string, unknown>;
  /** Why the expectation is what it is (a pointer to the docs); not checked. */
  readonly note?: string;
}

/** A vector file: one area, one revision group. */
export interface VectorFile {
  readonly area: string;
  readonly revision: string;
  readonly description: string;
  readonly cases: readonly VectorCase[];
}

/** What one case gave; `ok` when `actual` deep-equals `expected`. */
export interface CaseResult {
  readonly name: string;
  readonly ok: boolean;
  readonly actual: unknown;
  readonly expected: unknown;
}

function checkRevisionGroup(file: VectorFile, input: Record<string, unknown>, where: string): void {
  if (!BY_REVISION.has(file.area)) {
    if (file.revision !== 'any') fail(where, `area "${file.area}" is not grouped by revision: its revision must be "any"`);
    return;
  }
  const revision = input.revision;
  const known = typeof revision === 'string' && KNOWN_REVISIONS.includes(revision);
  const fits = file.revision === UNKNOWN_REVISIONS ? !known : revision === file.revision;
  if (!fits) fail(where, `input.revision ${JSON.stringify(revision)} does not belong in the "${file.revision}" file`);
}

/**
 * Checks a vector file's shape and returns it typed. Throws a {@link VectorError} for an
 * unknown area, a missing or misspelt field, a case in the wrong revision group, or a
 * repeated case name: a file that cannot be mapped fails the run rather than being skipped.
 *
 * @example
 * const file = parseVectorFile(JSON.parse(text)); // file.cases.length > 0
 */
export function parseVectorFile(value: unknown): VectorFile {
  const file = record(value, 'vector file');
  onlyKeys(file, ['area', 'revision', 'description', 'cases'], 'vector file');
  const area = need(file, 'area', 'string', 'vector file');
  if (!Object.hasOwn(CHECKERS, area)) fail('vector file', `unknown area ${JSON.stringify(area)} (known: ${AREAS.join(', ')})`);
  const where = `vector file ${area}/${String(file.revision)}`;
  need(file, 'revision', 'string', where);
  need(file, 'description', 'string', where);
  const cases = list(file, 'cases', where);
  if (cases.length === 0) fail(where, '"cases" must not be empty');
  const names = new Set<string>();
  cases.forEach((value, i) => {
    const c = record(value, `${where} case ${i}`);
    onlyKeys(c, ['name', 'input', 'expect', 'note'], `${where} case ${i}`);
    const name = need(c, 'name', 'string', `${where} case ${i}`);
    if (name === '' || names.has(name)) fail(`${where} case ${i}`, `name ${JSON.stringify(name)} is empty or repeated`);
    names.add(name);
    if (c.note !== undefined) need(c, 'note', 'string', `${where} case "${name}"`);
    record(c.expect, `${where} case "${name}" expect`);
    checkRevisionGroup(file as unknown as VectorFile, record(c.input, `${where} case "${name}" input`), `${where} case "${name}"`);
  });
  return file as unknown as VectorFile;
}

/**
 * Runs every case of a vector file through core. Throws a {@link VectorError} when the file
 * or one of its cases cannot be mapped (see {@link parseVectorFile}); a case whose answer
 * differs from its expectation, or on which core throws unexpectedly, is reported with
 * `ok: false`, not thrown.
 *
 * @example
 * const results = checkVectorFile({ area: 'revisions', revision: 'any', description: '…',
 *   cases: [{ name: 'modern', input: { revision: '2026-07-28' }, expect: { … } }] });
 * results.every((r) => r.ok)
 */
export function checkVectorFile(value: unknown): CaseResult[] {
  const file = parseVectorFile(value);
  const check = CHECKERS[file.area]!;
  return file.cases.map(({ name, input, expect }) => {
    const where = `${file.area}/${file.revision} case "${name}"`;
    let actual: unknown;
    try {
      actual = check(input, `${where} input`);
    } catch (error) {
      if (error instanceof VectorError) throw error;
      // Core itself threw (not an option error, which checks capture): a failed case, not a bad file.
      actual = { uncaught: String(error) };
    }
    return { name, ok: deepEqual(actual, expect), actual, expected: expect };
  });
}
