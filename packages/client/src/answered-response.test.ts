import { describe, expect, it } from 'vitest';
import { AnsweredResponse } from './answered-response.ts';

const text = '{"jsonrpc":"2.0","id":4,"result":{"tools":[]}}';
const make = () => new AnsweredResponse(text, JSON.parse(text), { jsonrpc: '2.0', id: 4, result: { tools: [] } }, new Response(null, {
  status: 200, statusText: 'OK', headers: new Headers({ 'content-type': 'application/json' }),
}));

describe('AnsweredResponse', () => {
  it('gives the parsed value to json() and the text to text(), like a response read once', async () => {
    const response = make();
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get('content-type'), response.bodyUsed]).toEqual([200, true, 'application/json', false]);
    await expect(response.json()).resolves.toEqual(JSON.parse(text));
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    await expect(make().text()).resolves.toBe(text);
  });

  it('makes a body stream only when asked for, and clones while unread', async () => {
    const response = make();
    const copy = response.clone();
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(response.bodyUsed).toBe(false); // asking for the stream reads nothing
    expect(await new Response(response.body).text()).toBe(text);
    expect(response.bodyUsed).toBe(true);
    await expect(response.json()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    await expect(copy.json()).resolves.toEqual(JSON.parse(text));
    expect(new TextDecoder().decode(await make().arrayBuffer())).toBe(text);
  });

  it('is not read by asking for its body, only by reading it; a cancelled body is used', async () => {
    const response = make();
    expect(response.body).not.toBeNull(); // a test of the body, as some fetch wrappers make
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(response.bodyUsed).toBe(false);
    await expect(response.clone().text()).resolves.toBe(text);
    await expect(response.json()).resolves.toEqual(JSON.parse(text));
    const cancelled = make();
    await cancelled.body!.cancel();
    await expect(cancelled.json()).rejects.toThrow(TypeError);
  });
});
