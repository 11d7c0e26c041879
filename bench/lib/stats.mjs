/** Latency summary of a list of durations in milliseconds. */
export function summarise(times) {
  if (times.length === 0) return { p50: null, p99: null, max: null, mean: null };
  const sorted = Float64Array.from(times).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  let sum = 0;
  for (const t of sorted) sum += t;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], mean: sum / sorted.length };
}

export const fmt = {
  rate: (n) => (n == null ? '-' : Math.round(n).toLocaleString('en-US')),
  ms: (n) => (n == null ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(1)),
  ratio: (n) => (n == null || !Number.isFinite(n) ? '-' : n.toFixed(2)),
};

/** Plain fixed-width table: rows are arrays of strings, first column left-aligned. */
export function table(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i] ?? '').length)));
  const line = (r) =>
    r.map((c, i) => (i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
