import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const MAX_STREAMS = 1_000;
const MAX_EVENTS_PER_STREAM = 1_000;

/**
 * An in-memory event store, so that response streams carry event ids and a client can resume
 * one with GET + `Last-Event-ID`. Bounded: the oldest streams and events are forgotten.
 *
 * @example
 * new StreamableHTTPServerTransport({ sessionIdGenerator, eventStore: new BoundedEventStore() });
 */
export class BoundedEventStore implements EventStore {
  readonly #streams = new Map<string, { id: string; message: JSONRPCMessage }[]>();
  #next = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    let events = this.#streams.get(streamId);
    if (!events) {
      if (this.#streams.size >= MAX_STREAMS) this.#streams.delete(this.#streams.keys().next().value!);
      events = [];
      this.#streams.set(streamId, events);
    }
    const id = `${streamId}_${++this.#next}`;
    events.push({ id, message });
    if (events.length > MAX_EVENTS_PER_STREAM) events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const streamId = eventId.slice(0, eventId.lastIndexOf('_'));
    return this.#streams.has(streamId) ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = (await this.getStreamIdForEventId(lastEventId)) ?? '';
    const events = this.#streams.get(streamId) ?? [];
    const from = events.findIndex((e) => e.id === lastEventId);
    for (const event of events.slice(from + 1)) await send(event.id, event.message);
    return streamId;
  }
}
