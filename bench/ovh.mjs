import { measureOverhead } from './dist/overhead.js';
const format = process.argv[2] ?? 'json';
const r = await measureOverhead({ warmupCalls: 300, rounds: 10, sequentialCalls: 100, concurrentCallsPerWorker: 2 }, format);
console.log(format, 'seq median', r.sequential.medianRatio.toFixed(3), 'cpu', r.sequential.cpuRatio.toFixed(3), 'conc', r.concurrent.medianRatio.toFixed(3));
