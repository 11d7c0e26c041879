/** A minimal Prometheus text-format registry: counters and one latency histogram. */

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

type Labels = Record<string, string>;
const key = (l: Labels) => Object.entries(l).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`).join(',');

export class Metrics {
  private counters = new Map<string, { help: string; values: Map<string, number> }>();
  private hist = new Map<string, { counts: number[]; sum: number; n: number }>();

  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    let c = this.counters.get(name);
    if (!c) this.counters.set(name, (c = { help, values: new Map() }));
    const k = key(labels);
    c.values.set(k, (c.values.get(k) ?? 0) + by);
  }

  /** http_request_duration_seconds, labelled by route and method. */
  observe(labels: Labels, seconds: number): void {
    const k = key(labels);
    let h = this.hist.get(k);
    if (!h) this.hist.set(k, (h = { counts: BUCKETS.map(() => 0), sum: 0, n: 0 }));
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) h!.counts[i]++;
    });
    h.sum += seconds;
    h.n++;
  }

  render(): string {
    const out: string[] = [];
    for (const [name, c] of this.counters) {
      out.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`);
      for (const [k, v] of c.values) out.push(`${name}${k ? `{${k}}` : ''} ${v}`);
    }
    const h = 'http_request_duration_seconds';
    out.push(`# HELP ${h} Request latency by route.`, `# TYPE ${h} histogram`);
    for (const [k, v] of this.hist) {
      BUCKETS.forEach((b, i) => out.push(`${h}_bucket{${k},le="${b}"} ${v.counts[i]}`));
      out.push(`${h}_bucket{${k},le="+Inf"} ${v.n}`, `${h}_sum{${k}} ${v.sum}`, `${h}_count{${k}} ${v.n}`);
    }
    return out.join('\n') + '\n';
  }
}
