import { describe, expect, it } from 'vitest';
import { AnsweredResponse } from './answered-response.ts';
import { HandedResponse } from './responses.ts';

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

  it('has a body stream, and clones while unread', async () => {
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

  it('reads as bytes, as a Blob of the type its headers say, and refuses to be form data; each once', async () => {
    expect(new TextDecoder().decode(await make().bytes())).toBe(text);
    const blob = await make().blob();
    expect([blob.type, await blob.text()]).toEqual(['application/json', text]);
    const response = make();
    await expect(response.formData()).rejects.toThrow(TypeError);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    const read = make();
    await read.text();
    expect(() => read.clone()).toThrow(TypeError);
    expect(() => new Response(read.body)).toThrow(TypeError); // the stream of a body already read: disturbed
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

describe('HandedResponse', () => {
  const upstream = () => {
    const response = new Response('{"a":1}', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json', 'x-server': 'one' } });
    Object.defineProperties(response, { url: { value: 'http://127.0.0.1:1/mcp' }, redirected: { value: true } });
    return response;
  };

  it('has the very headers, url and redirected of the response it was read from: nothing copied', async () => {
    const from = upstream();
    const handed = new HandedResponse('{"b":2}', from);
    expect(handed.headers).toBe(from.headers);
    expect([handed.status, handed.statusText, handed.url, handed.redirected]).toEqual([201, 'Created', 'http://127.0.0.1:1/mcp', true]);
    expect(await handed.text()).toBe('{"b":2}');
    // A Blob of it has the type its headers say, not that of the body's source (a string).
    const blob = await new HandedResponse('{"b":2}', from).blob();
    expect([blob.type, await blob.text()]).toEqual(['application/json', '{"b":2}']);
    // Another status (a 202 read as a 200) has no status text of its own; other headers are given, in place of the upstream ones.
    const other = new HandedResponse(null, from, 200, new Headers({ 'content-type': 'text/plain' }));
    expect([other.status, other.statusText, other.headers.get('content-type'), other.url]).toEqual([200, '', 'text/plain', 'http://127.0.0.1:1/mcp']);
  });

  it('clones with its status, headers and url, each copy reading the whole body', async () => {
    const handed = new HandedResponse('{"b":2}', upstream());
    const copy = handed.clone();
    expect([copy.status, copy.headers.get('x-server'), copy.url]).toEqual([201, 'one', 'http://127.0.0.1:1/mcp']);
    expect([await copy.text(), await handed.text()]).toEqual(['{"b":2}', '{"b":2}']);
  });

  it('an AnsweredResponse given other headers (an SSE answer handed on as JSON) shows those', async () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    const answered = new AnsweredResponse(text, JSON.parse(text), { jsonrpc: '2.0', id: 4, result: { tools: [] } }, upstream(), headers);
    expect(answered.headers).toBe(headers);
    expect(answered.status).toBe(201);
    await expect(answered.json()).resolves.toEqual(JSON.parse(text));
  });
});
