import {
  EVENT_EMITTED_WHEN,
  EVENT_PAYLOAD_SCHEMAS,
  eventJsonSchema,
  PUBLIC_EVENT_TYPES,
  webhookDeliveryBody,
  webhookTestPayload,
  type PublicEventType,
} from '@storage/domain';
import { csrfField, html, layout, scrollBox, type Html } from './html';
import type { EndpointSummary } from './portal-queries';
import { schemaFields, type SchemaField } from './schema-fields';

/** Each event type's payload fields, from the zod schemas producers and the dispatcher validate with (as the API's `webhooks`). */
const FIELDS: Record<PublicEventType, SchemaField[]> = Object.fromEntries(
  PUBLIC_EVENT_TYPES.map((type) => [type, schemaFields(eventJsonSchema(EVENT_PAYLOAD_SCHEMAS[type], 'draft-2020-12'))]),
) as Record<PublicEventType, SchemaField[]>;

/** Every event type: when it is sent, its payload's fields, an example body, and "Send example" to an endpoint subscribed to it. */
export function catalogPage(input: { endpoints: readonly EndpointSummary[]; now: Date; csrf: string; notice?: string }): string {
  return layout(
    'Event catalog',
    html`${input.notice ? html`<p id="notice" role="status"><strong>${input.notice}</strong></p>` : ''}
      <p>
        Every delivery is a JSON body <code>{"data": [payload], "test": false}</code>; the examples below are operation 19's test messages (<code
          >"test": true</code
        >, on the all-zero rental). Sending one queues it to the chosen endpoint like any message: it shows in its log.
      </p>
      <nav aria-label="Event types" class="pager">${PUBLIC_EVENT_TYPES.map((type) => html`<a href="#${type}">${type}</a>`)}</nav>
      ${PUBLIC_EVENT_TYPES.map((type) => eventSection(type, input))}`,
  );
}

function eventSection(type: PublicEventType, input: { endpoints: readonly EndpointSummary[]; now: Date; csrf: string }): Html {
  const receivers = input.endpoints.filter((e) => e.disabledAt === null && e.eventTypes.includes(type));
  const example = JSON.stringify(JSON.parse(webhookDeliveryBody(webhookTestPayload(type, input.now), { test: true })), null, 2);
  return html`<section class="event-type" id="${type}" aria-labelledby="${type}-title">
    <h2 id="${type}-title">${type}</h2>
    <p>${EVENT_EMITTED_WHEN[type]}</p>
    <h3>Payload fields</h3>
    ${scrollBox(`Fields of ${type}`, fieldTable(FIELDS[type]))}
    <h3>Example</h3>
    <p><button type="button" data-copy="${type}-example">Copy</button></p>
    <pre id="${type}-example" tabindex="0" aria-label="Example of ${type}">${example}</pre>
    ${
      receivers.length === 0
        ? html`<p>No enabled endpoint subscribes to ${type}.</p>`
        : html`<form method="post" action="/portal/catalog/${type}/send" class="filters send-example">
            ${csrfField(input.csrf)}
            <label
              >Endpoint
              <select name="endpointId">
                ${receivers.map((e) => html`<option value="${e.id}">${e.url}</option>`)}
              </select></label
            >
            <button>Send example</button>
          </form>`
    }
  </section>`;
}

function fieldTable(fields: readonly SchemaField[]): Html {
  return html`<table class="fields list">
    <tr>
      <th scope="col">Field</th>
      <th scope="col">Type</th>
      <th scope="col">Required</th>
      <th scope="col">Values</th>
    </tr>
    ${fields.map(
      (f) =>
        html`<tr>
          <td><code>${f.path}</code></td>
          <td data-label="Type">${f.type}</td>
          <td data-label="Required">${f.required ? 'yes' : 'no'}</td>
          <td data-label="Values">${f.notes}</td>
        </tr>`,
    )}
  </table>`;
}
