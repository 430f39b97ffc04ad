/** A small SVG line chart with a logarithmic x axis, written by hand: panels side by side. */

export interface Series {
  name: string;
  color: string;
  points: { x: number; y: number }[];
}

export interface Panel {
  title: string;
  yLabel: string;
  series: Series[];
}

/** A marked x position without data, e.g. a size that was not measured. */
export interface Note {
  x: number;
  text: string;
}

const WIDTH = 440;
const HEIGHT = 320;
const MARGIN = { left: 64, right: 24, top: 44, bottom: 52 };

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const round = (x: number) => Math.round(x * 10) / 10;

/** 1000 → 1k, 100000 → 100k, 1000000 → 1M. */
export function compactCount(n: number): string {
  if (n >= 1e6) return `${+(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toPrecision(3)}k`;
  return String(n);
}

function compactValue(y: number): string {
  return y >= 100 ? y.toFixed(0) : y >= 10 ? y.toFixed(1) : y.toFixed(2);
}

/** A round axis maximum and step (1, 2 or 5 × 10^k) giving about five ticks. */
export function niceScale(max: number): { max: number; step: number } {
  if (!(max > 0)) return { max: 1, step: 0.2 };
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!;
  return { max: Math.ceil(max / step) * step, step };
}

/** One series: its line, its points labelled with their values, and its legend entry (the i-th). */
function seriesSvg(s: Series, i: number, sx: (x: number) => number, sy: (y: number) => number, left: number): string[] {
  const out: string[] = [];
  const pts = [...s.points].sort((a, b) => a.x - b.x);
  out.push(
    `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.map((p) => `${round(sx(p.x))},${round(sy(p.y))}`).join(' ')}"/>`,
  );
  for (const p of pts) {
    out.push(`<circle cx="${round(sx(p.x))}" cy="${round(sy(p.y))}" r="3.5" fill="${s.color}"/>`);
    // Alternate series label above and below their points, so close lines stay readable.
    const dy = i % 2 === 0 ? -6 : 14;
    out.push(
      `<text x="${round(sx(p.x)) + 5}" y="${round(sy(p.y)) + dy}" font-size="10" fill="${s.color}">${compactValue(p.y)}</text>`,
    );
  }
  const ly = MARGIN.top + 14 + i * 16;
  out.push(
    `<line x1="${left + 10}" x2="${left + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"/>`,
  );
  out.push(`<text x="${left + 36}" y="${ly}" font-size="11">${escape(s.name)}</text>`);
  return out;
}

function panelSvg(
  panel: Panel,
  offsetX: number,
  xLabel: string,
  xMinDecade: number,
  xMax: number,
  notes: Note[],
): string[] {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const yMaxData = Math.max(...panel.series.flatMap((s) => s.points.map((p) => p.y)));
  const { max: yMax, step } = niceScale(yMaxData * 1.08);
  const sx = (x: number) => offsetX + MARGIN.left + ((Math.log10(x) - xMinDecade) / (xMax - xMinDecade)) * plotW;
  const sy = (y: number) => MARGIN.top + plotH - (y / yMax) * plotH;
  const out: string[] = [];
  const left = offsetX + MARGIN.left;
  out.push(
    `<text x="${left + plotW / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escape(panel.title)}</text>`,
  );
  for (let y = 0; y <= yMax + step / 2; y += step) {
    out.push(`<line x1="${left}" x2="${left + plotW}" y1="${round(sy(y))}" y2="${round(sy(y))}" stroke="#e4e4e4"/>`);
    out.push(
      `<text x="${left - 6}" y="${round(sy(y)) + 4}" text-anchor="end" font-size="11">${y.toFixed(Math.max(0, -Math.floor(Math.log10(step))))}</text>`,
    );
  }
  for (let d = xMinDecade; d <= Math.floor(xMax); d++) {
    const x = round(sx(10 ** d));
    out.push(`<line x1="${x}" x2="${x}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#e4e4e4"/>`);
    out.push(
      `<text x="${x}" y="${MARGIN.top + plotH + 16}" text-anchor="middle" font-size="11">${compactCount(10 ** d)}</text>`,
    );
  }
  for (const note of notes) {
    const x = round(sx(note.x));
    out.push(
      `<line x1="${x}" x2="${x}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#999" stroke-dasharray="4 3"/>`,
    );
    out.push(
      `<text x="${x - 5}" y="${MARGIN.top + plotH - 6}" font-size="10" fill="#666" transform="rotate(-90 ${x - 5} ${MARGIN.top + plotH - 6})">${escape(note.text)}</text>`,
    );
  }
  out.push(`<rect x="${left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`);
  out.push(
    `<text x="${left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle" font-size="12">${escape(xLabel)}</text>`,
  );
  const yMid = MARGIN.top + plotH / 2;
  out.push(
    `<text x="${offsetX + 16}" y="${yMid}" text-anchor="middle" font-size="12" transform="rotate(-90 ${offsetX + 16} ${yMid})">${escape(panel.yLabel)}</text>`,
  );
  panel.series.forEach((s, i) => out.push(...seriesSvg(s, i, sx, sy, left)));
  return out;
}

/** Panels share the x axis (log scale, ticks at whole decades). */
export function lineChartSvg(panels: Panel[], xLabel: string, caption: string, notes: Note[] = []): string {
  const xs = [
    ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map((pt) => pt.x))),
    ...notes.map((n) => n.x),
  ].filter((x) => x > 0);
  // From the decade below the smallest x to a little past the largest, so nothing sits on the frame.
  const lo = Math.floor(Math.log10(Math.min(...xs)));
  const hi = Math.max(lo + 1, Math.log10(Math.max(...xs)) + 0.12);
  const width = WIDTH * panels.length;
  const height = HEIGHT + 24;
  const body = panels.flatMap((p, i) => panelSvg(p, i * WIDTH, xLabel, lo, hi, notes));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...body,
    `<text x="${width / 2}" y="${height - 6}" text-anchor="middle" font-size="11" fill="#555">${escape(caption)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
