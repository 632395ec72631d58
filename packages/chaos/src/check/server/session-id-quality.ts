import { failed, passed, type Verdict } from './server-catalogue.ts';

/** Visible ASCII, 0x21 to 0x7E: what the spec allows in a session id. */
const VISIBLE = /^[\x21-\x7e]+$/;
/**
 * Bits of entropy an id must carry to count as unguessable: OWASP's floor for session ids (a
 * random UUID carries 122, 32 hex digits 128, 20 random decimal digits 66).
 *
 * @example
 * entropyBits(ids) >= MIN_ENTROPY_BITS;
 */
export const MIN_ENTROPY_BITS = 64;

/** The alphabets random ids are drawn from, smallest first: the varying characters' alphabet is the first that holds them all. */
const ALPHABETS: readonly (readonly [RegExp, number])[] = [
  [/^[0-9]*$/, 10], [/^[0-9a-f]*$/, 16], [/^[0-9A-F]*$/, 16], [/^[0-9a-z]*$/, 36], [/^[0-9A-Z]*$/, 36],
  [/^[0-9A-Za-z]*$/, 62], [/^[0-9A-Za-z_-]*$/, 64], [/^[0-9A-Za-z+/=]*$/, 65], [/^[\x21-\x7e]*$/, 94],
];

/** The characters of the ids that vary: every position where not all ids agree (ids of one length), else each id between the prefix and suffix all share. */
function varyingParts(ids: readonly string[]): string[] {
  if (ids.every((id) => id.length === ids[0]!.length)) {
    const positions = [...ids[0]!].map((_, i) => i).filter((i) => ids.some((id) => id[i] !== ids[0]![i]));
    return ids.map((id) => positions.map((i) => id[i]).join(''));
  }
  let prefix = 0;
  while (ids.every((id) => prefix < id.length && id[prefix] === ids[0]![prefix])) prefix++;
  let suffix = 0;
  const last = (id: string) => id[id.length - 1 - suffix];
  while (ids.every((id) => id.length - suffix > prefix && last(id) === last(ids[0]!))) suffix++;
  return ids.map((id) => id.slice(prefix, id.length - suffix));
}

/**
 * An estimate of the entropy of one id, in bits, from several: the fewest characters an id has
 * that vary from id to id, times log2 of the smallest common alphabet that holds every varying
 * character (digits, hex, alphanumeric, base64url, visible ASCII). A counter or a timestamp varies
 * in a few characters and scores a few bits; random ids score their length in any alphabet.
 *
 * @example
 * entropyBits(['1', '2', '3']); // 3.32…
 */
export function entropyBits(ids: readonly string[]): number {
  const parts = varyingParts(ids);
  const chars = parts.join('');
  const alphabet = ALPHABETS.find(([pattern]) => pattern.test(chars))?.[1] ?? 94;
  return Math.min(...parts.map((p) => p.length)) * Math.log2(alphabet);
}

const shown = (id: string) => JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);

/**
 * Judges the session ids of several `initialize`s by the spec's MUST: each of visible ASCII
 * (0x21–0x7E).
 *
 * @example
 * judgeSessionIdChars(['a b']).status; // 'failed'
 */
export function judgeSessionIdChars(ids: readonly string[]): Verdict {
  const bad = ids.find((id) => !VISIBLE.test(id));
  if (bad !== undefined) return failed(`session id ${shown(bad)} has characters outside visible ASCII (0x21–0x7E)`);
  return passed(`${ids.length} initializes, each answered with a session id of visible ASCII (e.g. ${ids[0]!.length} characters long)`);
}

/**
 * Judges the session ids of several `initialize`s by the spec's SHOULD ("globally unique and
 * cryptographically secure"): no two alike, and at least {@link MIN_ENTROPY_BITS} bits of
 * entropy each by {@link entropyBits}, whatever alphabet they are written in.
 *
 * @example
 * judgeSessionIds(['1', '2', '3']).status; // 'failed'
 */
export function judgeSessionIds(ids: readonly string[]): Verdict {
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) return failed(`${ids.length} initializes issued the same session id ${shown(twice)} more than once`);
  const bits = Math.floor(entropyBits(ids));
  const sample = `${ids.slice(0, 2).map(shown).join(', ')}, …`;
  if (bits < MIN_ENTROPY_BITS) return failed(`${ids.length} session ids (${sample}) vary in about ${bits} bits: guessable (at least ${MIN_ENTROPY_BITS} wanted)`);
  return passed(`${ids.length} distinct session ids (${sample}), about ${bits} bits of entropy each`);
}
