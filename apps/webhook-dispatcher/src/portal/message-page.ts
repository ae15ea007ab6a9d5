import { utcText } from './form-values';
import { csrfField, html, layout, scrollBox, type Html } from './html';
import type { AttemptView, MessageDetail } from './portal-queries';

/** The body as sent, indented for reading (a body that is not JSON is shown as it is). */
function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A message: what was sent (payload and headers, not the signature), every attempt and its answer, and Resend. */
export function messagePage(message: MessageDetail, attempts: readonly AttemptView[], csrf: string, notice?: string): string {
  const endpointPath = `/portal/endpoints/${message.endpointId}`;
  return layout(
    `Message ${message.id}`,
    html`${notice ? html`<p id="notice" role="status"><strong>${notice}</strong></p>` : ''}
      <p><a href="${endpointPath}#log">← Log of ${message.endpointUrl}</a></p>
      ${scrollBox(
        'Message',
        html`<table id="message">
          <tr>
            <th scope="row">Event type</th>
            <td>${message.eventType}</td>
          </tr>
          <tr>
            <th scope="row">Event id</th>
            <td><code>${message.eventId}</code></td>
          </tr>
          <tr>
            <th scope="row">Rental</th>
            <td>${message.rentalUuid ? html`<code>${message.rentalUuid}</code>` : 'none (a test event)'}</td>
          </tr>
          <tr>
            <th scope="row">Status</th>
            <td class="${message.status === 'succeeded' ? 'ok' : message.status}" id="status">
              ${message.status}${message.status === 'pending' && message.nextAttemptAt ? html`, next try ${utcText(message.nextAttemptAt)}` : ''}
            </td>
          </tr>
          <tr>
            <th scope="row">Created</th>
            <td>${utcText(message.createdAt)}</td>
          </tr>
        </table>`,
      )}
      <form method="post" action="/portal/messages/${message.id}/resend">${csrfField(csrf)}<button id="resend">Resend</button></form>

      <h2>Payload</h2>
      <p>
        The body as signed and sent (indented here).
        <button type="button" data-copy="payload" id="copy-payload">Copy</button>
      </p>
      <pre id="payload" tabindex="0" aria-label="Payload">${prettyJson(message.body)}</pre>

      <h2>Headers</h2>
      <p>
        Every attempt sends <code>content-type: application/json</code>, <code>hook-id: <span id="hook-id">${message.id}</span></code> (the same on every retry,
        to deduplicate on), <code>hook-timestamp</code> (the attempt's time in Unix seconds, below) and <code>hook-signature</code> (made with the endpoint's
        secret, not shown here).
      </p>

      <h2>Attempts</h2>
      ${attempts.length === 0 ? html`<p id="no-attempts">Not attempted yet.</p>` : scrollBox('Attempts', attemptTable(attempts))}`,
  );
}

function attemptTable(attempts: readonly AttemptView[]): Html {
  return html`<table id="attempts">
    <tr>
      <th scope="col">Attempted</th>
      <th scope="col"><code>hook-timestamp</code></th>
      <th scope="col">Result</th>
      <th scope="col">Duration</th>
      <th scope="col">Response body</th>
    </tr>
    ${attempts.map(
      (a) =>
        html`<tr class="attempt">
          <td>${utcText(a.attemptedAt)}</td>
          <td>${Math.floor(new Date(a.attemptedAt).getTime() / 1000)}</td>
          <td class="${a.succeeded ? 'ok' : 'failed'}">${a.statusCode ?? a.error}</td>
          <td>${a.latencyMs} ms</td>
          <td><pre>${a.responseBody ?? ''}</pre></td>
        </tr>`,
    )}
  </table>`;
}
