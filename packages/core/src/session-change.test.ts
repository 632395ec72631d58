import { describe, expect, it } from 'vitest';
import { sessionChange } from './session-change.ts';

describe('sessionChange', () => {
  it('sees no change in the same negotiation, whatever the key order', () => {
    const caps = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: false } };
    const reordered = { resources: { listChanged: false, subscribe: true }, tools: { listChanged: true } };
    expect(sessionChange({ revision: '2025-11-25', capabilities: caps }, { revision: '2025-11-25', capabilities: reordered })).toBeUndefined();
  });

  it('names a changed revision and the capabilities added, removed or changed', () => {
    expect(sessionChange(
      { revision: '2025-11-25', capabilities: { tools: {}, logging: {}, resources: { subscribe: true } } },
      { revision: '2025-06-18', capabilities: { tools: {}, prompts: {}, resources: { subscribe: false } } },
    )).toEqual({ revision: { from: '2025-11-25', to: '2025-06-18' }, capabilities: ['logging', 'prompts', 'resources'] });
  });

  it('treats garbage capabilities as none', () => {
    expect(sessionChange({ revision: 'r', capabilities: 'x' }, { revision: 'r', capabilities: [1] })).toBeUndefined();
    expect(sessionChange({ revision: 'r' }, { revision: 'r', capabilities: { tools: {} } })).toEqual({ capabilities: ['tools'] });
  });
});
