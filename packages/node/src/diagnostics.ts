import { channel } from 'node:diagnostics_channel';
import type { ResilienceEvent } from '@mcp-resilience/client';

/**
 * The `node:diagnostics_channel` name every engine event is published on, the event object
 * itself being the message (sessions named by ordinal, never by id).
 *
 * @example
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe(EVENT_CHANNEL, (event) => metrics.count((event as ResilienceEvent).type));
 */
export const EVENT_CHANNEL = 'mcp-resilience:event';

/** Held for the life of the module, so that subscribers made by name stay attached. */
const events = channel(EVENT_CHANNEL);

/**
 * Publishes an event on {@link EVENT_CHANNEL}, and does nothing at all when the channel has
 * no subscribers.
 *
 * @example
 * createResilientFetch({ onEvent: publishEvent });
 */
export function publishEvent(event: ResilienceEvent): void {
  if (events.hasSubscribers) events.publish(event);
}
