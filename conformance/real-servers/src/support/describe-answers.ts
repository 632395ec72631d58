import { sessionGoneResponse, DIALECT_NAMES, type DialectName } from '@mcp-resilience/chaos';
import { classify } from '@mcp-resilience/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureDeadSessionAnswers, type DeadSessionAnswers } from './dead-session-answers.ts';
import { fixtureRow, wireOf } from './fixture.ts';
import type { RunningServer } from './server-process.ts';
import type { RealServer } from './servers.ts';
import type { WireAnswer } from './wire-answer.ts';

const WHEN = ['afterRestart', 'whileAnotherSessionLives'] as const;
const METHODS = ['POST', 'GET'] as const;
const CASES = WHEN.flatMap((when) => METHODS.map((method) => [when, method] as const));

function verdictOf(answer: WireAnswer, method: 'POST' | 'GET') {
  return classify({
    kind: 'http', revision: '2025-11-25', sessionIdSent: true, httpMethod: method, ...(method === 'POST' ? { rpcMethod: 'ping' } : {}),
    status: answer.status, contentType: answer.contentType, ...(answer.body === null ? {} : { body: answer.body }),
  });
}

/**
 * The tests of a server's answer to a dead session id: measured on the running server (POST
 * and GET, after a restart and while another session lives), compared byte for byte with its
 * fixture row, classified by core as the row says, and — where the row names one — written
 * identically by the mcp-chaos dialect of that name.
 *
 * @example
 * describeAnswers(SERVER_EVERYTHING, () => running);
 */
export function describeAnswers(server: RealServer, running: () => RunningServer): void {
  describe('its answer to a dead session id', () => {
    const row = fixtureRow(server.id);
    let measured: DeadSessionAnswers;
    beforeAll(async () => {
      measured = await measureDeadSessionAnswers(running());
    });

    it('has a fixture row for this server and version', () => {
      expect(row, `no row "${server.id}" in src/fixtures/dead-session-answers.json; measured: ${JSON.stringify(measured)}`).toBeDefined();
      expect({ package: row!.package, version: row!.version }).toEqual({ package: server.package, version: server.version });
    });

    it.each(CASES)('%s, %s: status, content type and body equal the fixture row', (when, method) => {
      expect(measured[when][method]).toEqual(wireOf(row![when][method]));
    });

    it.each(CASES)('%s, %s: core classifies it as the fixture row says', (when, method) => {
      expect(verdictOf(measured[when][method], method)).toMatchObject(row![when][method].verdict);
    });

    if (row?.chaosDialect) {
      const name = row.chaosDialect as DialectName;
      it(`is what mcp-chaos writes as dialect "${name}", byte for byte`, () => {
        expect(DIALECT_NAMES).toContain(name);
        const { status, headers, body } = sessionGoneResponse(name, { requestId: 1, uptimeSeconds: 0 });
        expect({ status, contentType: headers['content-type'] ?? null, body }).toEqual(measured.afterRestart.POST);
      });
    }
  });
}
