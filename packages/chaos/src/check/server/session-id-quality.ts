import { failed, passed, type Verdict } from './server-catalogue.ts';

/** Visible ASCII, 0x21 to 0x7E: what the spec allows in a session id. */
const VISIBLE = /^[\x21-\x7e]+$/;
/**
 * Distinct characters the ids together must show: random hex shows all 16 in five ids (missing
 * more than four of them is a chance of 1 in 10^22), a short counter or a few random digits far fewer.
 */
const MIN_DISTINCT = 12;
/** Characters two ids must differ in, between their common prefix and suffix (a counter differs in a few). */
const MIN_DIFFERING = 8;

function differing(a: string, b: string): number {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return Math.max(a.length, b.length) - start - end;
}

const shown = (id: string) => JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);

/**
 * Judges the session ids of several `initialize`s: each visible ASCII (0x21–0x7E), no two alike,
 * together at least 12 distinct characters, and no two in a row differing in fewer than 8
 * characters between their common prefix and suffix (a counter, a timestamp).
 *
 * @example
 * judgeSessionIds(['1', '2', '3']).status; // 'failed'
 */
export function judgeSessionIds(ids: readonly string[]): Verdict {
  const bad = ids.find((id) => !VISIBLE.test(id));
  if (bad !== undefined) return failed(`session id ${shown(bad)} has characters outside visible ASCII (0x21–0x7E)`);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) return failed(`${ids.length} initializes issued the same session id ${shown(twice)} more than once`);
  const distinct = new Set(ids.join('')).size;
  if (distinct < MIN_DISTINCT) return failed(`${ids.length} session ids (${ids.slice(0, 3).map(shown).join(', ')}, …) use ${distinct} distinct characters: guessable`);
  for (let i = 1; i < ids.length; i++) {
    const n = differing(ids[i - 1]!, ids[i]!);
    if (n < MIN_DIFFERING) return failed(`session ids ${shown(ids[i - 1]!)} then ${shown(ids[i]!)} differ in ${n} characters: sequential, guessable`);
  }
  return passed(`${ids.length} initializes, ${ids.length} distinct session ids of visible ASCII (${distinct} distinct characters, e.g. ${ids[0]!.length} long)`);
}
