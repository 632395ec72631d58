// What the test pages load: the adapter and the SDK, bundled for the browser, on `window.mcp`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as browser from '../index.ts';

Object.assign(globalThis, { mcp: { ...browser, Client, StreamableHTTPClientTransport } });
