// How the docs write a figure: a true minus sign, thousands separated, sizes in KB and MB, ratios
// to a fixed precision, Markdown tables; and the figures more than one doc derives from a run.
import type { CommittedResults } from './committed-results.ts';
import type { LineageMemoryResult } from './lineage-memory.ts';
import type { OverheadResult } from './overhead.ts';

/**
 * Numbers with a true minus sign (−), as typeset.
 *
 * @example
 * minus('-0.21 MB') // '−0.21 MB'
 */
export const minus = (text: string) => text.replace(/(^|[^\w.])-(?=\d)/g, '$1−');
/**
 * A whole number with thousands separated.
 *
 * @example
 * int(12345.6) // '12,346'
 */
export const int = (n: number) => minus(Math.round(n).toLocaleString('en-US'));
/**
 * Bytes in KB, two decimals.
 *
 * @example
 * kb(2048) // '2.00 KB'
 */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
/**
 * A budget in KB, without trailing zeros.
 *
 * @example
 * budgetKb(5120) // '5 KB'
 */
export const budgetKb = (bytes: number) => `${Number((bytes / 1024).toFixed(2))} KB`;
/**
 * Bytes in MB, two decimals.
 *
 * @example
 * mb(-220_000) // '−0.21 MB'
 */
export const mb = (bytes: number) => minus(`${(bytes / 1024 / 1024).toFixed(2)} MB`);
/**
 * A ratio to three decimals.
 *
 * @example
 * r3(1.02345) // '1.023'
 */
export const r3 = (ratio: number) => ratio.toFixed(3);
/**
 * A ratio to two decimals.
 *
 * @example
 * r2(1.236) // '1.24'
 */
export const r2 = (ratio: number) => ratio.toFixed(2);
/**
 * Milliseconds to so many decimals.
 *
 * @example
 * ms(1.234, 2) // '1.23 ms'
 */
export const ms = (value: number, digits: number) => `${minus(value.toFixed(digits))} ms`;
/**
 * Milliseconds added (or taken), signed.
 *
 * @example
 * plusMs(0.042) // '+0.04 ms'
 */
export const plusMs = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)} ms`;
/**
 * A ratio as a change in per cent.
 *
 * @example
 * pct(1.021) // '2.1 %'
 */
export const pct = (ratio: number) => `${minus(((ratio - 1) * 100).toFixed(1))} %`;
/**
 * One row of a Markdown table.
 *
 * @example
 * row(['a', '']) // '| a | |'
 */
export const row = (cells: readonly string[]) => `|${cells.map((c) => (c === '' ? ' ' : ` ${c} `)).join('|')}|`;
/**
 * A Markdown table: its head, its rule, its rows.
 *
 * @example
 * tableOf(['a'], [['1']]) // '| a |\n|---|\n| 1 |'
 */
export const tableOf = (head: readonly string[], rows: readonly (readonly string[])[]) =>
  [row(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n');
/**
 * The dates of runs, as the docs write them.
 *
 * @example
 * day('2026-12-07T17:00:00Z') // '2026-12-07'
 */
export const day = (iso: string) => iso.slice(0, 10);

/**
 * The latency the engine adds at the median, in ms.
 *
 * @example
 * addedMs(results.details.overhead.sequential) // 0.04
 */
export const addedMs = (x: OverheadResult['sequential']) => x.resilient.latency.medianMs - x.plain.latency.medianMs;
/**
 * The CPU the engine adds to a call, in µs.
 *
 * @example
 * addedCpu(results.details.overhead.sequential) // 85
 */
export const addedCpu = (x: OverheadResult['sequential']) => x.resilient.cpuMicrosPerCall - x.plain.cpuMicrosPerCall;

/**
 * The many-clients memory run, which runs older than it lack.
 *
 * @example
 * lineageOf(results)?.clients // 2000
 */
export function lineageOf(c: CommittedResults): LineageMemoryResult | undefined {
  return c.details.memory.clients;
}
