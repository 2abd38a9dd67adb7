// A small Prometheus text-format registry (exposition format 0.0.4): counters and histograms with
// labels, plus collectors that compute gauges at scrape time.

type Labels = Readonly<Record<string, string>>;

interface Metric {
  render(): string;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  if (extra !== undefined) pairs.push(extra);
  if (pairs.length === 0) return "";
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
}

function keyOf(labels: Labels): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
}

function formatNumber(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    private readonly help: string,
  ) {}

  inc(labels: Labels, by = 1): void {
    const key = keyOf(labels);
    const current = this.values.get(key);
    if (current === undefined) this.values.set(key, { labels, value: by });
    else current.value += by;
  }

  /** The current value for exactly these labels (0 when never incremented). */
  get(labels: Labels): number {
    return this.values.get(keyOf(labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) {
      lines.push(`${this.name}${labelText(labels)} ${formatNumber(value)}`);
    }
    return lines.join("\n");
  }
}

/** Seconds; the default buckets suit request latencies from 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram implements Metric {
  private readonly series = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly buckets: readonly number[] = LATENCY_BUCKETS,
  ) {}

  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    let entry = this.series.get(key);
    if (entry === undefined) {
      entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    for (let i = 0; i < this.buckets.length; i++) {
      if (value <= this.buckets[i]!) entry.counts[i] = entry.counts[i]! + 1;
    }
    entry.sum += value;
    entry.count += 1;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      this.buckets.forEach((bound, i) => {
        lines.push(`${this.name}_bucket${labelText(labels, ["le", formatNumber(bound)])} ${counts[i]}`);
      });
      lines.push(`${this.name}_bucket${labelText(labels, ["le", "+Inf"])} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${formatNumber(sum)}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines.join("\n");
  }
}

/** One gauge line set, computed when scraped. */
export function renderGauge(name: string, help: string, value: number): string {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${formatNumber(value)}`].join("\n");
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];

  add<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }

  /** The registry's metrics followed by `extra` blocks (gauges computed by the caller). */
  render(extra: readonly string[] = []): string {
    return `${[...this.metrics.map((m) => m.render()), ...extra].join("\n")}\n`;
  }
}
