import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgeSessionIds } from './session-id-quality.ts';

describe('judgeSessionIds', () => {
  it('passes random ids (UUIDs, hex)', () => {
    expect(judgeSessionIds(Array.from({ length: 5 }, () => randomUUID())).status).toBe('passed');
    expect(judgeSessionIds(Array.from({ length: 5 }, () => randomUUID().replaceAll('-', ''))).status).toBe('passed');
  });

  it('fails a counter, a repeated id, an id outside visible ASCII, and a random prefix with a counter', () => {
    expect(judgeSessionIds(['1', '2', '3', '4', '5']).detail).toMatch(/use \d distinct characters: guessable/);
    expect(judgeSessionIds(['abc', 'abc']).detail).toMatch(/same session id "abc" more than once/);
    expect(judgeSessionIds(['a b']).detail).toMatch(/outside visible ASCII/);
    const prefix = randomUUID();
    expect(judgeSessionIds([`${prefix}-1`, `${prefix}-2`]).detail).toMatch(/differ in 1 characters: sequential/);
  });
});
