import { readFileSync } from 'node:fs';
import type { AnswerPair, WireAnswer } from './wire-answer.ts';

/** An answer as the fixture records it: the wire answer and core's verdict on it. */
export interface FixtureAnswer extends WireAnswer {
  readonly verdict: { readonly kind: string; readonly dialect?: string };
}

/** One server's row of `src/fixtures/dead-session-answers.json`. */
export interface FixtureRow {
  readonly package: string;
  readonly version: string;
  /** The mcp-chaos dialect that writes the `afterRestart` POST answer byte for byte, if any. */
  readonly chaosDialect: string | null;
  readonly afterRestart: Record<keyof AnswerPair, FixtureAnswer>;
  readonly whileAnotherSessionLives: Record<keyof AnswerPair, FixtureAnswer>;
  /** Sessionful servers: the id of a session the client ended with DELETE, asked right after. */
  readonly afterDelete?: Record<keyof AnswerPair, FixtureAnswer | VaryingAnswer>;
}

/** An answer that varied from run to run (a server in an undefined state): any of `oneOf`. */
export interface VaryingAnswer {
  readonly oneOf: readonly FixtureAnswer[];
  readonly why: string;
}

const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/dead-session-answers.json', import.meta.url), 'utf8')) as {
  readonly servers: Readonly<Record<string, FixtureRow>>;
};

/**
 * The checked-in row of a server (`undefined` for a server not measured yet).
 *
 * @example
 * fixtureRow('sdk1-one-transport')?.afterRestart.POST.status // 400
 */
export function fixtureRow(serverId: string): FixtureRow | undefined {
  return FIXTURE.servers[serverId];
}

/**
 * The wire part of a fixture answer (without the verdict), to compare with a measurement.
 *
 * @example
 * expect(measured.afterRestart.POST).toEqual(wireOf(row.afterRestart.POST));
 */
export function wireOf({ status, contentType, body }: FixtureAnswer): WireAnswer {
  return { status, contentType, body };
}

/**
 * The wire answers a fixture entry accepts: one, or each of a varying one's `oneOf`.
 *
 * @example
 * expect(acceptedWire(row.afterDelete.POST)).toContainEqual(measured.POST);
 */
export function acceptedWire(entry: FixtureAnswer | VaryingAnswer): WireAnswer[] {
  return 'oneOf' in entry ? entry.oneOf.map(wireOf) : [wireOf(entry)];
}
