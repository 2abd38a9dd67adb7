import type { ChartSpec } from "../suite.js";

/** Renders a chart as a self-contained SVG (no fonts or scripts to fetch): lines or grouped bars. */

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { top: 48, right: 180, bottom: 56, left: 72 };
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

export function renderChart(spec: ChartSpec): string {
  const plot = { w: WIDTH - MARGIN.left - MARGIN.right, h: HEIGHT - MARGIN.top - MARGIN.bottom };
  const ys = spec.series.flatMap((s) => s.points.map((p) => p.y)).filter(Number.isFinite);
  const yMax = niceMax(Math.max(0, ...ys));
  const yOf = (y: number) => MARGIN.top + plot.h - (Math.max(0, y) / yMax) * plot.h;
  const body = spec.kind === "line" ? lines(spec, plot, yOf) : bars(spec, plot, yOf);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const value = f * yMax;
    const y = yOf(value);
    return (
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plot.w}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>` +
      `<text x="${MARGIN.left - 8}" y="${y + 4}" text-anchor="end">${formatNumber(value)}</text>`
    );
  });
  const legend = spec.series.map((s, i) => {
    const y = MARGIN.top + 8 + i * 20;
    const x = WIDTH - MARGIN.right + 16;
    return (
      `<rect x="${x}" y="${y - 9}" width="12" height="12" fill="${color(i)}"/>` +
      `<text x="${x + 18}" y="${y + 1}">${escapeXml(s.name)}</text>`
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`,
    ...yTicks,
    body.join(""),
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plot.h}" stroke="#333"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + plot.w}" y1="${MARGIN.top + plot.h}" y2="${MARGIN.top + plot.h}" stroke="#333"/>`,
    `<text x="${MARGIN.left + plot.w / 2}" y="${HEIGHT - 12}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`,
    `<text transform="translate(18 ${MARGIN.top + plot.h / 2}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`,
    ...legend,
    "</svg>",
  ].join("\n");
}

type Plot = { w: number; h: number };

function lines(spec: ChartSpec, plot: Plot, yOf: (y: number) => number): string[] {
  const xs = [...new Set(spec.series.flatMap((s) => s.points.map((p) => Number(p.x))))].sort((a, b) => a - b);
  const scale = (x: number) => (spec.logX ? Math.log10(Math.max(x, 1e-9)) : x);
  const lo = scale(xs[0] ?? 0);
  const hi = scale(xs[xs.length - 1] ?? 1);
  const xOf = (x: number) => MARGIN.left + (hi === lo ? plot.w / 2 : ((scale(x) - lo) / (hi - lo)) * plot.w);
  const out = xs.map(
    (x) =>
      `<text x="${xOf(x)}" y="${MARGIN.top + plot.h + 18}" text-anchor="middle">${formatNumber(x)}</text>`,
  );
  spec.series.forEach((series, i) => {
    const points = series.points
      .filter((p) => Number.isFinite(p.y))
      .map((p) => `${xOf(Number(p.x))},${yOf(p.y)}`);
    out.push(`<polyline fill="none" stroke="${color(i)}" stroke-width="2" points="${points.join(" ")}"/>`);
    for (const p of points) {
      const [cx, cy] = p.split(",");
      out.push(`<circle cx="${cx}" cy="${cy}" r="3.5" fill="${color(i)}"/>`);
    }
  });
  return out;
}

function bars(spec: ChartSpec, plot: Plot, yOf: (y: number) => number): string[] {
  const groups = [...new Set(spec.series.flatMap((s) => s.points.map((p) => String(p.x))))];
  const groupWidth = plot.w / Math.max(1, groups.length);
  const barWidth = (groupWidth * 0.8) / Math.max(1, spec.series.length);
  const out: string[] = [];
  groups.forEach((group, g) => {
    const x0 = MARGIN.left + g * groupWidth + groupWidth * 0.1;
    out.push(
      `<text x="${x0 + groupWidth * 0.4}" y="${MARGIN.top + plot.h + 18}" text-anchor="middle">${escapeXml(group)}</text>`,
    );
    spec.series.forEach((series, i) => {
      const y = series.points.find((p) => String(p.x) === group)?.y;
      if (y === undefined || !Number.isFinite(y)) return;
      const top = yOf(y);
      out.push(
        `<rect x="${x0 + i * barWidth}" y="${top}" width="${barWidth - 2}" height="${MARGIN.top + plot.h - top}" fill="${color(i)}"><title>${escapeXml(`${series.name} ${group}: ${formatNumber(y)}`)}</title></rect>`,
      );
    });
  });
  return out;
}

function color(i: number): string {
  return COLORS[i % COLORS.length] as string;
}

/** The smallest 1/2/5 × 10^n at or above `value`, so axis ticks are round numbers. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "–";
  if (Math.abs(value) >= 1_000_000) return `${+(value / 1_000_000).toFixed(2)}M`;
  if (Math.abs(value) >= 1000) return `${+(value / 1000).toFixed(1)}k`;
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 1) return `${+value.toFixed(2)}`;
  return `${+value.toFixed(3)}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
