// `pnpm charts`: draws docs/charts/*.svg from the figures of the last full runs
// (bench/results/latest.json, bench/results/soak.json).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchRun } from './report.ts';
import { recoveryChart, soakChart, soakRecoveryChart } from './charts.ts';
import type { SoakReport } from './soak-report.ts';

const results = (name: string) => fileURLToPath(new URL(`../results/${name}`, import.meta.url));
const charts = fileURLToPath(new URL('../../docs/charts/', import.meta.url));
mkdirSync(charts, { recursive: true });

const written: string[] = [];
if (existsSync(results('latest.json'))) {
  const { details } = JSON.parse(readFileSync(results('latest.json'), 'utf8')) as { details: BenchRun };
  writeFileSync(`${charts}recovery-latency.svg`, recoveryChart(details.recovery));
  written.push('recovery-latency.svg');
}
if (existsSync(results('soak.json'))) {
  const { timeline } = JSON.parse(readFileSync(results('soak.json'), 'utf8')) as SoakReport;
  writeFileSync(`${charts}soak-timeline.svg`, soakChart(timeline));
  writeFileSync(`${charts}soak-recoveries.svg`, soakRecoveryChart(timeline));
  written.push('soak-timeline.svg', 'soak-recoveries.svg');
}
console.log(written.length === 0 ? 'no results yet: run pnpm bench and pnpm soak first' : `written in docs/charts: ${written.join(', ')}`);
