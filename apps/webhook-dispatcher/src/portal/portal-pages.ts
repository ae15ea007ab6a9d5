import { RETRY_SCHEDULE_MS } from '../delivery/retry-policy';
import { utcText as when } from './form-values';
import { barChart, COLOURS, lineChart } from './charts';
import { csrfField, html, layout, scrollBox } from './html';
import { messageLog, type LogQuery } from './message-log';
import type { EndpointSummary, LastDay, LogPage, Rates } from './portal-queries';
import { searchForm } from './search-page';

const percent = (part: number, whole: number): string => (whole === 0 ? 'n/a' : `${((part / whole) * 100).toFixed(1)} %`);
const duration = (ms: number): string => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`);

export type DeniedReason = 'expired' | 'invalid' | 'missing' | 'revoked';

/** The page for an expired, forged or revoked link: says what to do, shows nothing else. */
export function deniedPage(reason: DeniedReason): string {
  const message =
    reason === 'expired'
      ? 'This portal link has expired. Links are valid for 7 days: request a new one with the dashboard-link operation.'
      : reason === 'revoked'
        ? 'The API key this portal link was issued to has been revoked (or may no longer manage webhooks). Request a new link with a current write key.'
        : 'This portal link is not valid. Request a new one with the dashboard-link operation.';
  return layout('Link not valid', html`<p id="denied">${message}</p>`, { nav: false });
}

/** The page for a refused form post (no or wrong form token): nothing was changed. */
export function forbiddenPage(): string {
  return layout(
    'Not allowed',
    html`<p id="denied">This form was not sent from this portal session; nothing was changed. Go back to the portal and try again.</p>`,
  );
}

/** A link of another portfolio while a session is open: switching needs a click from this session, not a link. */
export function switchPortfolioPage(current: string, next: string, token: string, csrf: string): string {
  return layout(
    'Switch portfolio?',
    html`<p id="switch">You are signed in to the webhook portal of <strong>${current}</strong>. This link opens the portal of <strong>${next}</strong>.</p>
      <form method="post" action="/portal/login">
        <input type="hidden" name="token" value="${token}" />${csrfField(csrf)}<button id="switch-portfolio">Switch to ${next}</button>
      </form>
      <p><a href="/portal">Stay in ${current}</a></p>`,
  );
}

export function notFoundPage(): string {
  return layout('Not found', html`<p id="not-found">No such page, endpoint or message in this portfolio.</p>`);
}

export function endpointsPage(portfolio: string, endpoints: readonly (EndpointSummary & { day: Rates })[], notice?: string): string {
  const rows = endpoints.map(
    (e) =>
      html`<tr>
        <td><a href="/portal/endpoints/${e.id}">${e.url}</a></td>
        <td data-label="Vendor">${e.vendorName}</td>
        <td data-label="Event types">${e.eventTypes.join(', ')}</td>
        <td data-label="Status">${e.disabledAt ? html`<span class="failed">disabled: ${e.disabledReason}</span>` : html`<span class="ok">enabled</span>`}</td>
        <td data-label="Attempts succeeded, last 24 h">
          ${percent(e.day.succeeded, e.day.succeeded + e.day.failed)} of ${e.day.succeeded + e.day.failed} attempts
        </td>
      </tr>`,
  );
  return layout(
    `Endpoints of ${portfolio}`,
    html`${notice ? html`<p id="notice" role="status"><strong>${notice}</strong></p>` : ''} ${searchForm('')}
      <p><a href="/portal/endpoints/new" id="add-endpoint">Add an endpoint</a></p>
      ${scrollBox(
        'Endpoints',
        html`<table id="endpoints" class="list">
          <tr>
            <th>URL</th>
            <th>Vendor</th>
            <th>Event types</th>
            <th>Status</th>
            <th>Attempts succeeded, last 24 h</th>
          </tr>
          ${rows}
        </table>`,
      )}
      ${endpoints.length === 0 ? html`<p>No endpoints yet: add one here or create a subscription with the API.</p>` : ''}`,
  );
}

export interface EndpointPageInput {
  endpoint: EndpointSummary;
  lastDay: LastDay;
  week: Rates;
  log: LogPage;
  /** The log's query string: its filter, search and page. */
  logQuery: LogQuery;
  /** The opened `whsec_` secret when the reader asked to reveal it, else null (and it was never opened). */
  revealedSecret: string | null;
  notice?: string;
  now: Date;
  /** The session's form token, in every POST form. */
  csrf: string;
}

export function endpointPage(input: EndpointPageInput): string {
  const { endpoint: e, lastDay, week } = input;
  const day = lastDay.rates;
  const hours = lastDay.hours;
  const base = `/portal/endpoints/${e.id}`;
  return layout(
    e.url,
    html`${input.notice ? html`<p id="notice" role="status"><strong>${input.notice}</strong></p>` : ''}
      ${scrollBox(
        'Endpoint',
        html`<table>
          <tr>
            <th>Vendor</th>
            <td>${e.vendorName}</td>
          </tr>
          <tr>
            <th>Description</th>
            <td>${e.description}</td>
          </tr>
          <tr>
            <th>Event types</th>
            <td>${e.eventTypes.join(', ')}</td>
          </tr>
          <tr>
            <th>Filters</th>
            <td>
              facilities: ${e.facilityUuids.join(', ') || 'all'}; unit types: ${e.unitTypes.join(', ') || 'all'}; amenities:
              ${e.amenityUuids.join(', ') || 'all'}
            </td>
          </tr>
          <tr>
            <th>Status</th>
            <td>
              ${
                e.disabledAt
                  ? html`<span class="failed">disabled ${when(e.disabledAt)}: ${e.disabledReason}</span>
                      <form class="inline" method="post" action="${base}/enable">${csrfField(input.csrf)}<button>Enable again</button></form>`
                  : html`<span class="ok">enabled</span
                      >${e.failingSince ? html` (failing since ${when(e.failingSince)}: one delivery at a time until one succeeds)` : ''}
                      <form class="inline" method="post" action="${base}/disable">${csrfField(input.csrf)}<button id="disable">Disable</button></form>`
              }
            </td>
          </tr>
        </table>`,
      )}

      <p class="pager">
        <a href="${base}/edit" id="edit-endpoint">Edit URL, event types and filters</a>
        <a href="${base}/delete" id="delete-endpoint">Delete endpoint</a>
      </p>

      <h2>Signing secret</h2>
      <p>
        ${input.revealedSecret !== null ? html`<code id="secret">${input.revealedSecret}</code>` : html`<code>whsec_••••••••</code> <a id="reveal" href="${base}?reveal=1">Reveal</a>`}
        ${e.previousSecretExpiresAt && new Date(e.previousSecretExpiresAt) > input.now ? html`<br />The previous secret also signs until ${when(e.previousSecretExpiresAt)}.` : ''}
      </p>
      <form method="post" action="${base}/rotate">
        ${csrfField(input.csrf)}<button id="rotate">Rotate secret</button> (the old secret keeps signing beside the new one for 24 hours)
      </form>

      <h2>Delivery settings</h2>
      <form method="post" action="${base}/delivery" id="delivery">
        ${csrfField(input.csrf)}
        <label><input type="checkbox" name="orderedDelivery" ${e.orderedDelivery ? 'checked' : ''} /> Strict order per rental</label>
        (a rental's later event waits until the earlier ones succeeded or were given up; otherwise order is kept while nothing fails)
        <label>Deliveries in flight at most <input type="number" name="maxInFlight" min="1" max="256" required value="${String(e.maxInFlight)}" /></label>
        <button>Save delivery settings</button>
      </form>

      <h2>Deliveries</h2>
      <p>
        Delivery attempts in the last 24 hours: <span id="day-rate">${percent(day.succeeded, day.succeeded + day.failed)}</span> succeeded (${day.succeeded}
        attempts succeeded, ${day.failed} failed; a message retried counts once per attempt). Last 7 days:
        ${percent(week.succeeded, week.succeeded + week.failed)} of ${week.succeeded + week.failed} attempts succeeded.
      </p>
      <div class="charts">
        ${lineChart(
          hours.map((h) => h.label),
          [
            {
              name: 'attempts succeeded',
              colour: COLOURS.succeeded,
              values: day.buckets.map((b) => (b.succeeded + b.failed === 0 ? null : Math.round((b.succeeded / (b.succeeded + b.failed)) * 100))),
            },
          ],
          { caption: 'Success rate of delivery attempts per hour, last 24 hours', period: 'hour', unit: '%', max: 100 },
        )}
        ${lineChart(
          hours.map((h) => h.label),
          [
            { name: 'p50', colour: COLOURS.p50, values: hours.map((h) => h.p50) },
            { name: 'p95', colour: COLOURS.p95, values: hours.map((h) => h.p95) },
            { name: 'p99', colour: COLOURS.p99, values: hours.map((h) => h.p99) },
          ],
          { caption: 'Delivery attempt duration percentiles per hour, last 24 hours', period: 'hour', unit: 'ms' },
        )}
        ${barChart(
          hours.map((h) => h.label),
          [{ name: 'messages created', colour: COLOURS.messages, values: hours.map((h) => h.messages) }],
          { caption: 'Messages per hour, last 24 hours (each sent once or more)', period: 'hour', unit: 'messages' },
        )}
        ${barChart(
          day.buckets.map((b) => b.label),
          [
            { name: 'attempts succeeded', colour: COLOURS.succeeded, values: day.buckets.map((b) => b.succeeded) },
            { name: 'attempts failed', colour: COLOURS.failed, values: day.buckets.map((b) => b.failed) },
          ],
          { caption: 'Delivery attempts per hour, last 24 hours', period: 'hour', unit: 'attempts' },
        )}
        ${barChart(
          week.buckets.map((b) => b.label),
          [
            { name: 'attempts succeeded', colour: COLOURS.succeeded, values: week.buckets.map((b) => b.succeeded) },
            { name: 'attempts failed', colour: COLOURS.failed, values: week.buckets.map((b) => b.failed) },
          ],
          { caption: 'Delivery attempts per day, last 7 days', period: 'day', unit: 'attempts' },
        )}
      </div>

      <h2>Retry schedule</h2>
      <p>
        A delivery succeeds on any 2xx answer within 15 s. Otherwise it is retried after ${RETRY_SCHEDULE_MS.map(duration).join(', ')} (each ±20 %; at least 60
        s after a timeout or a 429; later if the answer carries Retry-After), then marked failed. A 410 Gone answer disables the endpoint, as do 5 days without
        a successful delivery.
      </p>

      <h2 id="log">Messages</h2>
      <form method="post" action="${base}/recover">
        ${csrfField(input.csrf)}<label>Recover all failed messages since <input type="datetime-local" name="since" required /> (UTC)</label>
        <button id="recover">Recover</button>
      </form>
      ${messageLog(base, input.logQuery, input.log, input.csrf)}`,
  );
}
