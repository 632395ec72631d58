/**
 * Columns padded to their widest cell.
 *
 * @example
 * table([['a', 'b'], ['ccc', 'd']]); // 'a    b\nccc  d'
 */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}
