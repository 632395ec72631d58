import { describe, expect, it } from 'vitest';
import { isReplaySafe } from './replay-safety.ts';

describe('isReplaySafe', () => {
  it('knows the read-only and idempotent methods', () => {
    for (const method of ['initialize', 'ping', 'tools/list', 'resources/read', 'prompts/get', 'logging/setLevel', 'resources/subscribe']) {
      expect(isReplaySafe({ method })).toBe(true);
    }
    for (const method of ['tools/call', 'sampling/createMessage', 'tasks/update', 'notifications/cancelled', 'made/up']) {
      expect(isReplaySafe({ method })).toBe(false);
    }
  });

  it('reads tasks and cancels them safely, but never creates one twice blindly', () => {
    for (const method of ['tasks/get', 'tasks/list', 'tasks/result', 'tasks/cancel']) expect(isReplaySafe({ method })).toBe(true);
    const creation = { method: 'tools/call', toolName: 'report', task: true };
    expect(isReplaySafe(creation)).toBe(false);
    expect(isReplaySafe({ ...creation, method: 'prompts/get' })).toBe(false); // a method safe to repeat is not, as a creation
    expect(isReplaySafe(creation, 'safe', { idempotentTools: ['report'] })).toBe(true);
    expect(isReplaySafe({ ...creation, consent: true })).toBe(true);
    expect(isReplaySafe(creation, 'never', { idempotentTools: ['report'] })).toBe(false);
  });

  it('never replays a POSTed response', () => {
    expect(isReplaySafe({})).toBe(false);
  });

  it('replays a tool only when the application vouches for it', () => {
    const search = { method: 'tools/call', toolName: 'search', annotations: { readOnlyHint: true } };
    expect(isReplaySafe(search)).toBe(false);
    expect(isReplaySafe(search, 'safe', { readOnlyTools: ['search'] })).toBe(true);
    expect(isReplaySafe(search, 'safe', { idempotentTools: ['search'] })).toBe(true);
    expect(isReplaySafe(search, 'safe', { trustAnnotations: true })).toBe(true);
    expect(isReplaySafe({ ...search, annotations: { idempotentHint: true } }, 'safe', { trustAnnotations: true })).toBe(true);
    expect(isReplaySafe({ ...search, annotations: { destructiveHint: false } }, 'safe', { trustAnnotations: true })).toBe(false);
    expect(isReplaySafe({ method: 'tools/call' }, 'safe', { readOnlyTools: ['search'] })).toBe(false);
  });

  it('follows the other policies', () => {
    expect(isReplaySafe({ method: 'tools/call', toolName: 'pay' }, 'always')).toBe(true);
    expect(isReplaySafe({ method: 'ping' }, 'never')).toBe(false);
    expect(isReplaySafe({ method: 'tools/call', toolName: 'pay' }, (op) => op.toolName === 'pay')).toBe(true);
    expect(isReplaySafe({ method: 'ping' }, () => 'yes' as unknown as boolean)).toBe(false);
  });
});

describe('isReplaySafe: the standalone stream', () => {
  it('may always be opened again', () => {
    expect(isReplaySafe({ stream: true })).toBe(true);
    expect(isReplaySafe({ stream: true }, 'never')).toBe(false);
  });
});
