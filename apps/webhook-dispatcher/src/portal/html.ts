/** Escapes text for HTML bodies and attribute values. */
export function escapeHtml(value: string | number | boolean | null | undefined): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Tagged template that escapes every interpolation unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const rendered = Array.isArray(value) ? value.map(part).join('') : part(value);
    out += rendered + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

const part = (value: unknown): string => (value instanceof Html ? value.value : escapeHtml(value as string | number | null | undefined));

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222;max-width:72rem}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}.ok{color:#176317}.failed{color:#a11}.pending{color:#865d00}pre{white-space:pre-wrap;max-height:12rem;overflow:auto;margin:0;font-size:12px}
form.inline{display:inline}code{background:#f4f4f4;padding:0 .25rem}nav a{margin-right:1rem}`;

export function layout(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title} · Webhook portal</title>
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <nav><a href="/portal">Endpoints</a></nav>
        <h1>${title}</h1>
        ${body}
      </body>
    </html>`.value;
}

export interface Bucket {
  label: string;
  succeeded: number;
  failed: number;
}

/** A small stacked bar chart (successes green, failures red) as inline SVG. */
export function barChart(buckets: readonly Bucket[], title: string): Html {
  const width = 12;
  const height = 60;
  const max = Math.max(1, ...buckets.map((b) => b.succeeded + b.failed));
  const bars = buckets.map((bucket, index) => {
    const okHeight = Math.round((bucket.succeeded / max) * height);
    const failHeight = Math.round((bucket.failed / max) * height);
    const x = index * (width + 2);
    return html`<g
      ><title>${bucket.label}: ${bucket.succeeded} succeeded, ${bucket.failed} failed</title>
      <rect x="${x}" y="${height - okHeight}" width="${width}" height="${okHeight}" fill="#2e8b57" />
      <rect x="${x}" y="${height - okHeight - failHeight}" width="${width}" height="${failHeight}" fill="#c0392b"
    /></g>`;
  });
  return html`<svg
    role="img"
    aria-label="${title}"
    width="${buckets.length * (width + 2)}"
    height="${height}"
    viewBox="0 0 ${buckets.length * (width + 2)} ${height}"
  >
    ${bars}
  </svg>`;
}
