// Runs every conformance scenario through @mcp-resilience/node against the chaos server and
// prints one normalized JSON report; exits 1 on any mismatch, unmappable file or empty set.
// Usage: node dist/main.js [scenarios-dir]   (default: conformance/scenarios)
import { createResilientFetch } from './engine.ts';
import { runAll } from './run-all.ts';

const report = await runAll(createResilientFetch, 'node', process.argv[2]);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
if (report.failed > 0 || report.scenarios.length === 0) process.exitCode = 1;
