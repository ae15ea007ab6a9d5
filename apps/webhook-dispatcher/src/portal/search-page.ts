import { utcText } from './form-values';
import { html, layout, scrollBox, type Html } from './html';
import type { FoundMessage } from './portal-queries';

/** The search box of the endpoints page: a message of any endpoint of the portfolio, by message id, event id or rental uuid. */
export const searchForm = (search: string): Html =>
  html`<form method="get" action="/portal/search" class="filters" role="search" id="search-all">
    <label
      >Find a message of any endpoint
      <input type="search" name="search" value="${search}" placeholder="message id, event id or rental uuid" size="36" required />
    </label>
    <button>Find</button>
  </form>`;

/** What a portfolio-wide search found: each message with its endpoint, newest first. */
export function searchPage(search: string, found: readonly FoundMessage[]): string {
  const rows = found.map(
    (m) =>
      html`<tr class="found" data-id="${m.id}">
        <td>
          <a href="/portal/messages/${m.id}"><code>${m.id}</code></a>
        </td>
        <td data-label="Endpoint"><a href="/portal/endpoints/${m.endpointId}">${m.endpointUrl}</a></td>
        <td data-label="Event type">${m.eventType}</td>
        <td data-label="Status" class="${m.status === 'succeeded' ? 'ok' : m.status}">${m.status}</td>
        <td data-label="Created">${utcText(m.createdAt)}</td>
      </tr>`,
  );
  return layout(
    'Find a message',
    html`${searchForm(search)}
    ${
      found.length === 0
        ? html`<p id="no-messages">No message of this portfolio has this message id, event id or rental uuid.</p>`
        : scrollBox(
            'Messages found',
            html`<table class="list" id="found">
              <tr>
                <th scope="col">Message</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Event type</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
              ${rows}
            </table>`,
          )
    }`,
  );
}
