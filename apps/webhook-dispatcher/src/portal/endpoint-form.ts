import { PUBLIC_EVENT_TYPES, type PublicEventType } from '@storage/domain';
import {
  checkTargetUrl,
  filterUuids,
  SUBSCRIPTION_LIMITS,
  subscribedEventTypes,
  TargetUrlRefused,
  type AddressPolicy,
  type HostResolver,
} from '@storage/webhooks';
import { csrfField, html, layout } from './html';
import type { EndpointSummary } from './portal-queries';

/** The endpoint form as sent: what it shows again when something in it is refused. */
export interface EndpointForm {
  vendorName: string;
  url: string;
  description: string;
  eventTypes: string[];
  /** The filters as typed: uuids separated by spaces, commas or lines. */
  facilityUuids: string;
  unitTypes: string;
  amenityUuids: string;
}

/** An endpoint form that passed operation 15's rules. */
export interface EndpointInput {
  vendorName: string;
  url: string;
  description: string;
  eventTypes: PublicEventType[];
  facilityUuids: string[];
  unitTypes: string[];
  amenityUuids: string[];
}

const FILTERS = [
  ['facilityUuids', 'Facilities'],
  ['unitTypes', 'Unit types'],
  ['amenityUuids', 'Amenities'],
] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The form from a post's body (a checkbox group arrives as one string or several). */
export function readEndpointForm(body: unknown): EndpointForm {
  const form = (body ?? {}) as Record<string, unknown>;
  const checked = form.eventTypes;
  return {
    vendorName: text(form.vendorName),
    url: text(form.url),
    description: text(form.description),
    eventTypes: (Array.isArray(checked) ? checked : [checked]).filter((value): value is string => typeof value === 'string'),
    facilityUuids: text(form.facilityUuids),
    unitTypes: text(form.unitTypes),
    amenityUuids: text(form.amenityUuids),
  };
}

/** The form of an endpoint as stored, to edit it. */
export const formOf = (endpoint: Pick<EndpointSummary, keyof EndpointForm>): EndpointForm => ({
  vendorName: endpoint.vendorName,
  url: endpoint.url,
  description: endpoint.description,
  eventTypes: endpoint.eventTypes,
  facilityUuids: endpoint.facilityUuids.join('\n'),
  unitTypes: endpoint.unitTypes.join('\n'),
  amenityUuids: endpoint.amenityUuids.join('\n'),
});

/**
 * The form checked by operation 15's rules (the same functions: event types, filter uuids, and the target URL's
 * address policy, DNS included); what is wrong, in words, otherwise.
 */
export async function vetEndpointForm(
  form: EndpointForm,
  policy: AddressPolicy,
  resolve: HostResolver,
): Promise<{ ok: true; input: EndpointInput } | { ok: false; problems: string[] }> {
  const problems: string[] = [];
  if (form.vendorName === '' || form.vendorName.length > SUBSCRIPTION_LIMITS.vendorName) {
    problems.push(`Give a vendor name of 1 to ${SUBSCRIPTION_LIMITS.vendorName} characters.`);
  }
  if (form.description.length > SUBSCRIPTION_LIMITS.description) problems.push(`The description is longer than ${SUBSCRIPTION_LIMITS.description} characters.`);
  const { types, unknown } = subscribedEventTypes(form.eventTypes, PUBLIC_EVENT_TYPES);
  if (types.length === 0 || unknown.length > 0) problems.push('Choose one or more of the event types listed.');
  const filters = Object.fromEntries(
    FILTERS.map(([field, label]) => {
      const uuids = form[field].split(/[\s,]+/).filter((value) => value !== '');
      if (uuids.some((uuid) => !UUID.test(uuid))) problems.push(`${label}: give uuids only, separated by spaces, commas or lines.`);
      if (uuids.length > SUBSCRIPTION_LIMITS.filterUuids) problems.push(`${label}: at most ${SUBSCRIPTION_LIMITS.filterUuids} uuids.`);
      return [field, filterUuids(uuids)];
    }),
  ) as Record<(typeof FILTERS)[number][0], string[]>;
  try {
    if (form.url.length > SUBSCRIPTION_LIMITS.targetUrl) throw new TargetUrlRefused(`longer than ${SUBSCRIPTION_LIMITS.targetUrl} characters`);
    await checkTargetUrl(form.url, policy, resolve);
  } catch (error) {
    if (!(error instanceof TargetUrlRefused)) throw error;
    problems.push(`URL refused: ${error.message}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, input: { vendorName: form.vendorName, url: form.url, description: form.description, eventTypes: types, ...filters } };
}

/** The page to add an endpoint (`editing` undefined) or to edit one: the form, and what was refused in it. */
export function endpointFormPage(input: { form: EndpointForm; problems: readonly string[]; csrf: string; editing?: { id: string } }): string {
  const { form, editing } = input;
  const action = editing ? `/portal/endpoints/${editing.id}/edit` : '/portal/endpoints';
  return layout(
    editing ? `Edit ${form.url}` : 'Add an endpoint',
    html`${
        input.problems.length > 0
          ? html`<div id="problems" role="alert">
              <p><strong>Nothing was saved:</strong></p>
              <ul>
                ${input.problems.map((problem) => html`<li>${problem}</li>`)}
              </ul>
            </div>`
          : ''
      }
      <form method="post" action="${action}" id="endpoint-form" class="stacked">
        ${csrfField(input.csrf)}
        <label
          >Vendor name
          ${
            editing
              ? html`<input name="vendorName" value="${form.vendorName}" readonly aria-describedby="vendor-fixed" />
                  <small id="vendor-fixed">The vendor names the endpoint; it does not change.</small>`
              : html`<input name="vendorName" value="${form.vendorName}" required maxlength="${SUBSCRIPTION_LIMITS.vendorName}" />`
          }
        </label>
        <label
          >URL (HTTPS, a public address, no query string)
          <input name="url" type="url" value="${form.url}" required maxlength="${SUBSCRIPTION_LIMITS.targetUrl}" placeholder="https://" />
        </label>
        <label
          >Description
          <input name="description" value="${form.description}" maxlength="${SUBSCRIPTION_LIMITS.description}" />
        </label>
        <fieldset>
          <legend>Event types</legend>
          ${PUBLIC_EVENT_TYPES.map(
            (type) =>
              html`<label class="check"
                ><input type="checkbox" name="eventTypes" value="${type}" ${form.eventTypes.includes(type) ? 'checked' : ''} /> ${type}</label
              >`,
          )}
        </fieldset>
        <fieldset>
          <legend>Filters (empty: every one; uuids separated by spaces, commas or lines)</legend>
          ${FILTERS.map(([field, label]) => html`<label>${label} <textarea name="${field}" rows="2">${form[field]}</textarea></label>`)}
        </fieldset>
        <button id="save-endpoint">${editing ? 'Save changes' : 'Add endpoint'}</button>
        <a href="${editing ? `/portal/endpoints/${editing.id}` : '/portal'}">Cancel</a>
      </form>`,
  );
}

/** Asks before deleting: the endpoint goes with its messages and their attempts, and cannot be brought back. */
export function deleteEndpointPage(endpoint: { id: string; url: string }, csrf: string): string {
  return layout(
    'Delete endpoint?',
    html`<p>
        Delete <strong>${endpoint.url}</strong>? Nothing more is sent to it, and its log (every message and attempt) is deleted with it. This cannot be undone;
        to stop deliveries for a while, disable it instead.
      </p>
      <form method="post" action="/portal/endpoints/${endpoint.id}/delete">
        ${csrfField(csrf)}<button id="confirm-delete">Delete endpoint</button>
        <a href="/portal/endpoints/${endpoint.id}">Keep it</a>
      </form>`,
  );
}
