import * as client from '@mcp-resilience/client';
import { describe, expect, it } from 'vitest';
import * as browser from './index.ts';

describe('@mcp-resilience/browser', () => {
  it('re-exports the public API of @mcp-resilience/client, with its own createResilientFetch and connect', () => {
    for (const name of Object.keys(client)) expect(browser, name).toHaveProperty(name);
    expect(browser.isResilienceError).toBe(client.isResilienceError);
    expect(browser.createResilientFetch).not.toBe(client.createResilientFetch);
    expect(browser.connect).not.toBe(client.connect);
  });

  it('reads a same-origin endpoint as one whose headers are not hidden, and any endpoint outside a page alike', () => {
    expect(browser.corsHidesHeaders('http://127.0.0.1:9/mcp')).toBe(false); // no location: not a page
  });
});
