/**
 * Counts this process's warnings by name from now on. Run node with `--no-warnings` so that
 * they are counted, not printed: the SDK hands every fetch its transport's one AbortSignal, and
 * undici's listeners on it pile up until a GC, so a burst of requests raises
 * MaxListenersExceededWarning with or without the engine.
 *
 * @example
 * const warnings = countProcessWarnings();
 * // … later: { MaxListenersExceededWarning: 700 }
 */
export function countProcessWarnings(): Readonly<Record<string, number>> {
  const counts: Record<string, number> = {};
  process.on('warning', (warning) => void (counts[warning.name] = (counts[warning.name] ?? 0) + 1));
  return counts;
}
