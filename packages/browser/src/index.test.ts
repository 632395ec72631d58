import * as client from '@mcp-resilience/client';
import { DEFAULT_RUNTIME } from '@mcp-resilience/client/adapter';
import { describe, expect, it } from 'vitest';
import * as browser from './index.ts';

describe('@mcp-resilience/browser', () => {
  it('re-exports the public API of @mcp-resilience/client, with its own createResilientFetch and connect', () => {
    for (const name of Object.keys(client)) expect(browser, name).toHaveProperty(name);
    expect(browser.isResilienceError).toBe(client.isResilienceError);
    expect(browser.createResilientFetch).not.toBe(client.createResilientFetch);
    expect(browser.connect).not.toBe(client.connect);
    expect(browser.resilienceMiddleware).not.toBe(client.resilienceMiddleware);
  });

  it('declares its runtime in one object, under the same keys as every adapter', () => {
    expect(Object.keys(browser.browserRuntime).sort()).toEqual(Object.keys(DEFAULT_RUNTIME).sort());
    expect(browser.browserRuntime).toMatchObject({ sleep: browser.browserSleep, notSent: browser.offlineNotSent, headersHidden: browser.corsHidesHeaders });
  });

  it('reads a same-origin endpoint as one whose headers are not hidden, and any endpoint outside a page alike', () => {
    expect(browser.corsHidesHeaders('http://127.0.0.1:9/mcp')).toBe(false); // no location: not a page
  });
});
