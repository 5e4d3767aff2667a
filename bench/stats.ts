// What the benchmarks report of a set of timings, shared so each table reads the same way.

export interface Measure {
  median: number;
  p95: number;
  runs: number;
}

export function summarize(samples: number[]): Measure {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), runs: samples.length };
}

export function fmt(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}
