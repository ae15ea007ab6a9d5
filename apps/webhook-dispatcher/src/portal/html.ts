import { PORTAL_SCRIPT_PATH } from './portal-script';

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

/** What a page interpolates: text and numbers (escaped), markup already built, or a list of them. */
type HtmlPart = Html | string | number | boolean | null | undefined;

export function html(strings: TemplateStringsArray, ...values: (HtmlPart | HtmlPart[])[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const rendered = Array.isArray(value) ? value.map(part).join('') : part(value);
    out += rendered + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

const part = (value: HtmlPart): string => (value instanceof Html ? value.value : escapeHtml(value));

/**
 * Narrow screens first: lists (`table.list`) become a card per row on a phone, other tables and code blocks scroll
 * inside their own focusable box (`scrollBox`) and long words wrap (ids and URLs anywhere), so no page is wider than
 * a 360 px phone; focus is always visible for keyboard users.
 */
const STYLE = `*{box-sizing:border-box}body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:1rem;color:#1d1d1f;max-width:72rem;overflow-wrap:break-word}
h1{font-size:1.4rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;margin:0}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f2f2;white-space:nowrap}td code,td a{overflow-wrap:anywhere}.scroll{position:relative;overflow-x:auto;margin:.5rem 0 1rem;max-width:100%}
.ok{color:#176317}.failed{color:#a11}.pending{color:#6b4a00}
pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:24rem;overflow:auto;margin:0;font-size:13px;background:#f7f7f7;padding:.5rem}
code{background:#f2f2f2;padding:0 .25rem}form.inline{display:inline}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;border-bottom:1px solid #ddd;padding-bottom:.5rem}
a{color:#0645ad}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,[tabindex]:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}
button{font:inherit;padding:.3rem .8rem;cursor:pointer}input,select{font:inherit;max-width:100%}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}form.filters label{display:flex;flex-direction:column}
.pager{display:flex;gap:1rem;margin:.5rem 0}
.chart{width:100%;max-width:40rem;height:auto;display:block}.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,26rem),1fr));gap:0 1.5rem}figure{margin:.5rem 0 1rem}figcaption{font-size:.9rem}
form.stacked{display:flex;flex-direction:column;gap:.75rem;max-width:40rem}form.stacked label{display:flex;flex-direction:column}form.stacked label.check{flex-direction:row;gap:.4rem}
fieldset{border:1px solid #ccc;display:flex;flex-direction:column;gap:.4rem}textarea{font:inherit;max-width:100%}
@media (max-width:40rem){table.list,table.list tbody,table.list tr,table.list td{display:block}
table.list tr:first-child{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.list tr{border:1px solid #ccc;margin-bottom:.5rem;padding:.25rem .5rem}table.list td{border:0;padding:.15rem 0}
table.list td[data-label]::before{content:attr(data-label) ": ";font-weight:600}table.list td:empty{display:none}}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.25rem .5rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

/** A table (or other wide block) that scrolls sideways within itself on a narrow screen, reachable with the keyboard. */
export const scrollBox = (label: string, content: Html): Html => html`<div class="scroll" tabindex="0" role="region" aria-label="${label}">${content}</div>`;

/** A form field carrying the session's token against cross-site posts. */
export const csrfField = (csrf: string): Html => html`<input type="hidden" name="csrf" value="${csrf}" />`;

/** `nav: false` for pages shown without a valid session: they link nowhere a session is needed. */
export function layout(title: string, body: Html, options: { nav?: boolean } = {}): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title} · Webhook portal</title>
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <style>
          ${new Html(STYLE)}
        </style>
        <script src="${PORTAL_SCRIPT_PATH}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${options.nav === false ? '' : html`<nav aria-label="Portal"><a href="/portal">Endpoints</a><a href="/portal/catalog">Event catalog</a></nav>`}
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.value;
}
