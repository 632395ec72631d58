import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const MAX_STREAMS = 1_000;
const MAX_EVENTS_PER_STREAM = 1_000;
const MAX_BYTES = 8 * 1024 * 1024;

interface StoredEvent {
  readonly id: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

/**
 * One session's in-memory event store, so that its response streams carry event ids and a
 * client can resume one with GET + `Last-Event-ID`. One store per session: a cursor from
 * another (or an ended) session finds nothing. Bounded in streams, events and bytes: the
 * oldest are forgotten first.
 *
 * @example
 * new StreamableHTTPServerTransport({ sessionIdGenerator, eventStore: new BoundedEventStore() });
 */
export class BoundedEventStore implements EventStore {
  readonly #streams = new Map<string, StoredEvent[]>();
  #next = 0;
  #bytes = 0;

  #forgetOldest(): void {
    const [streamId, events] = this.#streams.entries().next().value as [string, StoredEvent[]];
    const dropped = events.shift();
    if (dropped) this.#bytes -= dropped.bytes;
    if (events.length === 0) this.#streams.delete(streamId);
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    let events = this.#streams.get(streamId);
    if (!events) {
      if (this.#streams.size >= MAX_STREAMS) {
        const [oldest, gone] = this.#streams.entries().next().value as [string, StoredEvent[]];
        this.#bytes -= gone.reduce((sum, e) => sum + e.bytes, 0);
        this.#streams.delete(oldest);
      }
      events = [];
      this.#streams.set(streamId, events);
    }
    const id = `${streamId}_${++this.#next}`;
    const bytes = JSON.stringify(message).length;
    events.push({ id, message, bytes });
    this.#bytes += bytes;
    if (events.length > MAX_EVENTS_PER_STREAM) this.#bytes -= events.shift()!.bytes;
    while (this.#bytes > MAX_BYTES && this.#streams.size > 0) this.#forgetOldest();
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
