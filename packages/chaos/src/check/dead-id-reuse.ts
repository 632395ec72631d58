import { requestName as req, type WireFacts } from './wire-facts.ts';
import type { WireRecord } from './wire-tap.ts';

/** A dead id sent again, with the loss it followed and what proves the client had read that loss. */
export interface DeadIdReuse {
  readonly again: WireRecord;
  readonly loss: WireRecord;
  readonly proof: string;
  readonly shown: readonly WireRecord[];
}

/**
 * The first request on a dead session that the wire proves the client sent after it had read the
 * loss, and how many others carried the dead id with no such proof (they may have crossed the
 * loss's answer on their way). Proof is order, never a clock's margin:
 * - on one connection a request follows the whole answer before it (HTTP/1.1 does not pipeline);
 * - a call sent again after a send of it was answered "gone" followed that answer;
 * - the workload begins a step once the step before has settled;
 * - the client opens a new session, or sends on the loss's connection, only once it has read the
 *   loss; so an answer the server finished writing after such a request arrived was read by the
 *   client after it knew, and a request behind that answer on its connection was sent after too.
 * A DELETE of the old session is harmless, and a call's first send in the loss's step was on its
 * way (perhaps queued by the client's connection pool) when the step began.
 *
 * @example
 * const { reuse, crossed } = deadIdAgain(wireFacts(scenario, evidence), 'sid-1a2b');
 * reuse?.proof; // 'on the connection that had carried that answer'
 */
export function deadIdAgain(facts: WireFacts, session: string): { reuse?: DeadIdReuse; crossed: number } {
  const losses = facts.gone.filter((r) => r.session === session);
  const first = losses[0]!;
  const lossCall = facts.callOf(first);
  const inFlight = (r: WireRecord) => {
    const call = facts.callOf(r);
    return call !== undefined && facts.sendsOf(call)[0] === r && facts.stepOf(r) === facts.stepOf(first);
  };
  const resent = (r: WireRecord) => losses.find((loss) => loss.seq < r.seq && loss.call !== undefined && loss.call === r.call);
  const laterStep = (r: WireRecord) => lossCall !== undefined && facts.callOf(r) !== undefined && facts.stepOf(r) > facts.stepOf(first);
  const onLossConnection = (r: WireRecord) => losses.find((loss) => loss.seq < r.seq && loss.connection === r.connection);
  // The first request that shows the client had read the loss: what it sent after knowing, whatever the session.
  const knowing = facts.wire.find((r) => r.seq > first.seq && !inFlight(r)
    && (r.rpcMethod === 'initialize' || onLossConnection(r) !== undefined || resent(r) !== undefined || laterStep(r)));
  let crossed = 0;
  for (const r of facts.wire) {
    if (r.session !== session || r.seq <= first.seq || r.httpMethod === 'DELETE' || inFlight(r)) continue;
    const reuse = (proof: string, ...shown: WireRecord[]) => ({ reuse: { again: r, loss: first, proof, shown }, crossed });
    const loss = onLossConnection(r);
    if (loss) return reuse(`on the connection that had carried ${loss === first ? 'that answer' : `${req(loss)}'s answer`}`, loss);
    const earlier = resent(r);
    if (earlier) return reuse(`sending ${facts.callOf(r)!.id} again after ${req(earlier)} was answered ${earlier.status}`, earlier);
    if (laterStep(r)) return reuse(`as a call of step ${facts.stepOf(r) + 1}, begun once ${lossCall!.id} had settled`);
    const behind = knowing && facts.wire.find((k) => k.seq < r.seq && k.connection === r.connection && k.endMs !== undefined && k.endMs > knowing.startMs);
    if (behind) return reuse(`behind ${req(behind)} on its connection, answered after ${behind === knowing ? 'it' : req(knowing)} showed the client knew of the loss`, knowing, behind);
    crossed++;
  }
  return { crossed };
}
