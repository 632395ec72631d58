import { describe, expect, it } from 'vitest';
import { dataField, readRpcError } from './json-rpc.ts';

describe('readRpcError', () => {
  it('reads an error response given as text or as parsed JSON', () => {
    const body = { jsonrpc: '2.0', error: { code: -32000, message: 'm', data: { reason: 'r' } }, id: 1 };
    expect(readRpcError(JSON.stringify(body))).toEqual({ code: -32000, message: 'm', data: { reason: 'r' } });
    expect(readRpcError(body)).toEqual({ code: -32000, message: 'm', data: { reason: 'r' } });
  });

  it('takes the first error of a batch', () => {
    expect(readRpcError([{ result: {} }, { error: { code: -32601, message: 'a' } }, { error: { code: 1, message: 'b' } }]))
      .toEqual({ code: -32601, message: 'a' });
  });

  it('reads garbage as no error, without throwing', () => {
    for (const body of ['<html>502</html>', '{"jsonrpc":', '', 'null', '42', '"text"', '[]', '{"error":"x"}',
      '{"error":{"code":"-32000"}}', '{"error":{"code":1.5}}', '{"result":{}}', undefined, null, 7]) {
      expect(readRpcError(body)).toBeUndefined();
    }
  });

  it('keeps a missing or non-string message as empty text', () => {
    expect(readRpcError('{"error":{"code":-32001}}')).toEqual({ code: -32001, message: '' });
    expect(readRpcError('{"error":{"code":-32001,"message":{}}}')).toEqual({ code: -32001, message: '' });
  });
});

describe('dataField', () => {
  it('reads a field of an object data block and nothing else', () => {
    expect(dataField({ code: 1, message: '', data: { a: 1 } }, 'a')).toBe(1);
    expect(dataField({ code: 1, message: '', data: [1] }, '0')).toBeUndefined();
    expect(dataField({ code: 1, message: '', data: 'x' }, 'length')).toBeUndefined();
    expect(dataField(undefined, 'a')).toBeUndefined();
  });
});
