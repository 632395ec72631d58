import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entropyBits, judgeSessionIdChars, judgeSessionIds } from './session-id-quality.ts';

const decimal = (digits: number) => Array.from({ length: digits }, () => randomInt(10)).join('');

describe('judgeSessionIds', () => {
  it('passes random ids whatever their alphabet: UUIDs, hex, base64url, and random decimal digits', () => {
    expect(judgeSessionIds(Array.from({ length: 5 }, () => randomUUID())).status).toBe('passed');
    expect(judgeSessionIds(Array.from({ length: 5 }, () => randomUUID().replaceAll('-', ''))).status).toBe('passed');
    expect(judgeSessionIds(Array.from({ length: 5 }, () => randomBytes(16).toString('base64url'))).status).toBe('passed');
    expect(judgeSessionIds(Array.from({ length: 5 }, () => decimal(30))).status).toBe('passed');
    expect(judgeSessionIds(Array.from({ length: 5 }, () => `session-${decimal(30)}`)).status).toBe('passed');
  });

  it('fails a counter, a repeated id, a timestamp, and a random prefix with a counter', () => {
    expect(judgeSessionIds(['1', '2', '3', '4', '5']).detail).toMatch(/vary in about 3 bits: guessable/);
    expect(judgeSessionIds(['abc', 'abc']).detail).toMatch(/same session id "abc" more than once/);
    const prefix = randomUUID();
    expect(judgeSessionIds([`${prefix}-1`, `${prefix}-2`]).detail).toMatch(/vary in about 3 bits/);
    expect(judgeSessionIds(['1765123456789', '1765123456901', '1765123457012']).status).toBe('failed');
  });

  it('measures bits, not characters: 20 random digits carry 66 bits, a random UUID more than 64', () => {
    expect(Math.floor(entropyBits(['12345678901234567890', '23456789012345678901']))).toBe(66);
    expect(entropyBits(Array.from({ length: 5 }, () => randomUUID()))).toBeGreaterThan(64);
  });
});

describe('judgeSessionIdChars', () => {
  it('fails an id outside visible ASCII, and passes any visible one', () => {
    expect(judgeSessionIdChars(['a b']).detail).toMatch(/outside visible ASCII/);
    expect(judgeSessionIdChars(['1', '2']).status).toBe('passed');
  });
});
