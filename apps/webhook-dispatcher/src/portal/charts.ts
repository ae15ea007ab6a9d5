import { html, type Html } from './html';

/** Attempts in one period of a chart: its label on the time axis, and how many succeeded and failed. */
export interface Bucket {
  label: string;
  succeeded: number;
  failed: number;
}

const PLOT = { left: 44, top: 10, height: 90, bar: 12, gap: 2, bottom: 40, right: 12 };
const COLOURS = { succeeded: '#2e7d4f', failed: '#c0392b', axis: '#555' };

/**
 * Stacked bars of attempts per period (succeeded green, failed red) with labelled axes: the count on the y axis
 * (0, half and the highest), the period's start on the x axis (first, middle, last). Scales to the page's width.
 */
export function attemptsChart(buckets: readonly Bucket[], options: { caption: string; period: string }): Html {
  const max = Math.max(1, ...buckets.map((b) => b.succeeded + b.failed));
  const plotWidth = buckets.length * (PLOT.bar + PLOT.gap);
  const width = PLOT.left + plotWidth + PLOT.right;
  const height = PLOT.top + PLOT.height + PLOT.bottom;
  const baseline = PLOT.top + PLOT.height;
  const y = (count: number) => baseline - (count / max) * PLOT.height;
  const bars = buckets.map((bucket, index) => {
    const x = PLOT.left + index * (PLOT.bar + PLOT.gap) + PLOT.gap / 2;
    const okTop = y(bucket.succeeded);
    const failTop = y(bucket.succeeded + bucket.failed);
    return html`<g>
      <title>${bucket.label}: ${bucket.succeeded} attempts succeeded, ${bucket.failed} failed</title>
      <rect x="${x}" y="${okTop}" width="${PLOT.bar}" height="${baseline - okTop}" fill="${COLOURS.succeeded}" />
      <rect x="${x}" y="${failTop}" width="${PLOT.bar}" height="${okTop - failTop}" fill="${COLOURS.failed}" />
    </g>`;
  });
  const yTicks = [...new Set([0, Math.round(max / 2), max])].map(
    (value) =>
      html`<text x="${PLOT.left - 4}" y="${y(value) + 4}" text-anchor="end" font-size="10">${value}</text>
        <line x1="${PLOT.left - 2}" x2="${PLOT.left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd" />`,
  );
  const last = buckets.length - 1;
  // The first label starts at its bar and the last ends at its bar, so neither runs off the chart.
  const xTicks = [...new Set([0, Math.floor(last / 2), last])].map(
    (index) =>
      html`<text
        x="${PLOT.left + index * (PLOT.bar + PLOT.gap) + (index === 0 ? 0 : index === last ? PLOT.bar + PLOT.gap : PLOT.bar / 2)}"
        y="${baseline + 14}"
        text-anchor="${index === 0 ? 'start' : index === last ? 'end' : 'middle'}"
        font-size="10"
      >
        ${buckets[index]?.label ?? ''}
      </text>`,
  );
  const total = buckets.reduce((sum, b) => sum + b.succeeded + b.failed, 0);
  return html`<figure>
    <svg class="chart" role="img" aria-label="${options.caption}: ${total} attempts" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
      ${yTicks} ${bars}
      <line x1="${PLOT.left}" x2="${PLOT.left}" y1="${PLOT.top}" y2="${baseline}" stroke="${COLOURS.axis}" />
      <line x1="${PLOT.left}" x2="${PLOT.left + plotWidth}" y1="${baseline}" y2="${baseline}" stroke="${COLOURS.axis}" />
      ${xTicks}
      <text x="${PLOT.left + plotWidth / 2}" y="${height - 6}" text-anchor="middle" font-size="11">${options.period} (UTC)</text>
      <text x="12" y="${PLOT.top + PLOT.height / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${PLOT.top + PLOT.height / 2})">
        attempts
      </text>
    </svg>
    <figcaption>
      ${options.caption}: <span style="color:${COLOURS.succeeded}">■</span> succeeded, <span style="color:${COLOURS.failed}">■</span> failed.
    </figcaption>
  </figure>`;
}
