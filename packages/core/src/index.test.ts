import { describe, expect, it } from 'vitest';
import * as core from './index.ts';

/**
 * Every value the package exports, each used outside core (the engine, an adapter, otel, chaos,
 * the scenarios runner, conformance or bench). A new export is a decision: add it here and to
 * the README's table; core's own tests import from the module files.
 */
const PUBLIC_VALUES = [
  'DEFAULT_TASK_POLL', 'ERROR_CODES', 'FRESH_CALL', 'KNOWN_REVISIONS', 'NO_SESSION', 'ResilienceError', 'SURFACED_ERROR_CODE',
  'abandonReinitialize', 'adoptSession', 'advance', 'backoffDelay', 'beginReinitialize', 'canRetry', 'classify', 'createBackoff',
  'createRetryBudget', 'createRetryPolicy', 'createsTask', 'decide', 'defined', 'diagnoseLoss', 'equalJitter', 'failedFetch', 'followTask',
  'fullJitter', 'invalidOption', 'isIdleBeyond', 'isReplaySafe', 'isResilienceError', 'isSessionful', 'isUnknownTask', 'lossReport', 'markDead',
  'nextTaskStep', 'noJitter', 'normalizeTrace', 'parseRetryAfter', 'readTask', 'recordCall', 'recordRetry', 'recoveryStep',
  'redactSessionId', 'resilienceCodeOf', 'retryAfterMs', 'revisionTraits', 'sendPhase', 'serverUnreachable', 'sessionChange',
  'sessionIdUnread', 'taskLost', 'taskMode', 'touch', 'unreadSessionId', 'unrecognisedAnswer',
];

describe('the public surface of @mcp-resilience/core', () => {
  it('exports exactly the values used outside core', () => {
    // Internal helpers (unitRandom, checkedOptions…) and defaults nobody outside reads stay off it.
    expect(Object.keys(core).sort()).toEqual([...PUBLIC_VALUES].sort());
  });
});
