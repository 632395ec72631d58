import { describe, expect, it } from 'vitest';
import { ToolCatalog } from './tool-catalog.ts';

const list = (id: number, cursor?: string) => ({ jsonrpc: '2.0', id, method: 'tools/list', ...(cursor ? { params: { cursor } } : {}) });
const page = (id: number | string, tools: unknown[]) => ({ jsonrpc: '2.0', id, result: { tools } });

describe('ToolCatalog', () => {
  it('learns the hints of every page of tools/list, a first page replacing what was known', () => {
    const catalog = new ToolCatalog();
    catalog.learn(list(1), page(1, [{ name: 'echo', annotations: { readOnlyHint: true, title: 'Echo' } }, { name: 'bare' }]));
    catalog.learn(list(2, 'next'), page('2', [{ name: 'add', annotations: { idempotentHint: true, readOnlyHint: 'yes' } }]));
    expect(catalog.annotations('echo')).toEqual({ readOnlyHint: true });
    expect(catalog.annotations('add')).toEqual({ idempotentHint: true }); // answered under "2": the SDK's matching
    expect(catalog.annotations('bare')).toBeUndefined();
    catalog.learn(list(3), page(3, [{ name: 'add', annotations: { readOnlyHint: true } }]));
    expect(catalog.annotations('echo')).toBeUndefined();
  });

  it('ignores answers to other requests, errors and garbage', () => {
    const catalog = new ToolCatalog();
    catalog.learn(list(1), page(2, [{ name: 'echo', annotations: { readOnlyHint: true } }]));
    catalog.learn(list(1), { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } });
    catalog.learn(list(1), { jsonrpc: '2.0', id: 1, result: { tools: 'nope' } });
    catalog.learn(list(1), page(1, [null, 7, { name: 3, annotations: { readOnlyHint: true } }]));
    expect(catalog.annotations('echo')).toBeUndefined();
  });

  it('forgets everything when the server says its tools changed, until the next list', () => {
    const catalog = new ToolCatalog();
    catalog.learn(list(1), page(1, [{ name: 'echo', annotations: { readOnlyHint: true } }]));
    catalog.notice({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: {} });
    expect(catalog.annotations('echo')).toEqual({ readOnlyHint: true });
    catalog.notice({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(catalog.annotations('echo')).toBeUndefined();
  });
});
