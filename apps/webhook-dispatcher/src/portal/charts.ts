import { html, type Html } from './html';

/** Attempts in one period of a chart: its label on the time axis, and how many succeeded and failed. */
export interface Bucket {
  label: string;
  succeeded: number;
  failed: number;
}

/** One series of a chart: its name in the legend, its colour, a value per period (null: nothing to show). */
export interface Series {
  name: string;
  colour: string;
  values: readonly (number | null)[];
}

interface ChartOptions {
  /** Says what is counted and over what time: the figure's caption and the chart's accessible name. */
  caption: string;
  /** The x axis's title, the period of one bar or point: `hour`, `day`. */
  period: string;
  /** The y axis's title, with its unit: `attempts`, `messages`, `%`, `ms`. */
  unit: string;
  /** The top of the y axis; the highest value when absent. */
  max?: number;
}

export const COLOURS = { succeeded: '#2e7d4f', failed: '#c0392b', messages: '#1f5fa8', p50: '#2e7d4f', p95: '#b36b00', p99: '#c0392b' };
const PLOT = { left: 48, top: 10, height: 90, step: 14, bottom: 40, right: 12 };
const AXIS = '#555';

/** Stacked bars per period (the series from the bottom up), e.g. attempts succeeded and failed, or messages. */
export function barChart(labels: readonly string[], series: readonly Series[], options: ChartOptions): Html {
  const totals = labels.map((_, index) => series.reduce((sum, s) => sum + (s.values[index] ?? 0), 0));
  const frame = chartFrame(labels, options.max ?? Math.max(1, ...totals), options);
  const bars = labels.map((label, index) => {
    let base = 0;
    const parts = series.map((s) => {
      const value = s.values[index] ?? 0;
      const top = frame.y(base + value);
      const bottom = frame.y(base);
      base += value;
      return html`<rect x="${frame.x(index) - 6}" y="${top}" width="12" height="${bottom - top}" fill="${s.colour}" />`;
    });
    return html`<g><title>${label}: ${series.map((s) => `${s.values[index] ?? 0} ${s.name}`).join(', ')}</title>${parts}</g>`;
  });
  return figure(frame, bars, series, options);
}

/** Lines per period, e.g. latency percentiles or a success rate; a period without a value breaks its line. */
export function lineChart(labels: readonly string[], series: readonly Series[], options: ChartOptions): Html {
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const frame = chartFrame(labels, options.max ?? Math.max(1, ...values), options);
  const lines = series.map((s) => {
    const segments: string[] = [];
    s.values.forEach((value, index) => {
      if (value === null) return;
      const command = index > 0 && s.values[index - 1] !== null ? 'L' : 'M';
      segments.push(`${command}${frame.x(index)} ${frame.y(value).toFixed(1)}`);
    });
    const points = s.values.map((value, index) =>
      value === null
        ? ''
        : html`<circle cx="${frame.x(index)}" cy="${frame.y(value).toFixed(1)}" r="2" fill="${s.colour}"
            ><title>${labels[index]}: ${s.name} ${value} ${options.unit}</title></circle
          >`,
    );
    return html`<path d="${segments.join(' ')}" fill="none" stroke="${s.colour}" stroke-width="1.5" />${points}`;
  });
  return figure(frame, lines, series, options);
}

interface Frame {
  width: number;
  height: number;
  x: (index: number) => number;
  y: (value: number) => number;
  axes: Html;
}

/** The plot's scales and its labelled axes: the y axis at 0, half and the top; the x axis at the first, middle and last period. */
function chartFrame(labels: readonly string[], max: number, options: ChartOptions): Frame {
  const plotWidth = labels.length * PLOT.step;
  const width = PLOT.left + plotWidth + PLOT.right;
  const height = PLOT.top + PLOT.height + PLOT.bottom;
  const baseline = PLOT.top + PLOT.height;
  const x = (index: number) => PLOT.left + index * PLOT.step + PLOT.step / 2;
  const y = (value: number) => baseline - (Math.min(value, max) / max) * PLOT.height;
  const yTicks = [...new Set([0, Math.round(max / 2), max])].map(
    (value) =>
      html`<text x="${PLOT.left - 4}" y="${y(value) + 4}" text-anchor="end" font-size="10">${value}</text>
        <line x1="${PLOT.left - 2}" x2="${PLOT.left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd" />`,
  );
  const last = labels.length - 1;
  // The first label starts at its period and the last ends at its period, so neither runs off the chart.
  const xTicks = [...new Set([0, Math.floor(last / 2), last])].map(
    (index) =>
      html`<text
        x="${index === 0 ? PLOT.left : index === last ? PLOT.left + plotWidth : x(index)}"
        y="${baseline + 14}"
        text-anchor="${index === 0 ? 'start' : index === last ? 'end' : 'middle'}"
        font-size="10"
        >${labels[index] ?? ''}</text
      >`,
  );
  const axes = html`${yTicks}
    <line x1="${PLOT.left}" x2="${PLOT.left}" y1="${PLOT.top}" y2="${baseline}" stroke="${AXIS}" />
    <line x1="${PLOT.left}" x2="${PLOT.left + plotWidth}" y1="${baseline}" y2="${baseline}" stroke="${AXIS}" />
    ${xTicks}
    <text x="${PLOT.left + plotWidth / 2}" y="${height - 6}" text-anchor="middle" font-size="11">${options.period} (UTC)</text>
    <text x="12" y="${PLOT.top + PLOT.height / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${PLOT.top + PLOT.height / 2})"
      >${options.unit}</text
    >`;
  return { width, height, x, y, axes };
}

function figure(frame: Frame, marks: Html[], series: readonly Series[], options: ChartOptions): Html {
  return html`<figure>
    <svg class="chart" role="img" aria-label="${options.caption}" viewBox="0 0 ${frame.width} ${frame.height}" width="${frame.width}" height="${frame.height}">
      ${frame.axes} ${marks}
    </svg>
    <figcaption>${options.caption}: ${series.map((s, index) => html`${index > 0 ? ', ' : ''}<span style="color:${s.colour}">■</span> ${s.name}`)}.</figcaption>
  </figure>`;
}
