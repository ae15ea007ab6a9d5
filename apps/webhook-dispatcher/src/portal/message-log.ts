import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { MESSAGE_STATUSES } from '../delivery/webhook-message.entity';
import { parseUtcTime, utcText } from './form-values';
import { csrfField, html, scrollBox, type Html } from './html';
import type { LogFilter, LogPage, MessageView } from './portal-queries';

/** The log's query string as sent: what the filter form shows again, and what the pager links carry on. */
export interface LogQuery {
  eventType?: string;
  status?: string;
  from?: string;
  to?: string;
  search?: string;
  older?: string;
}

const FILTER_KEYS = ['eventType', 'status', 'from', 'to', 'search'] as const;

/** The filter a query string asks for; values that are not an event type, a status or a time are ignored. */
export function logFilter(query: LogQuery): LogFilter {
  const from = parseUtcTime(query.from);
  const to = parseUtcTime(query.to);
  const search = query.search?.trim();
  return {
    ...((PUBLIC_EVENT_TYPES as readonly string[]).includes(query.eventType ?? '') ? { eventType: query.eventType } : {}),
    ...((MESSAGE_STATUSES as readonly string[]).includes(query.status ?? '') ? { status: query.status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(search ? { search } : {}),
  };
}

/** The cursor of the page asked for: a message id, or null for the newest. */
export const logCursor = (query: LogQuery): string | null => (query.older && /^msg_[0-9a-f]{32}$/.test(query.older) ? query.older : null);

/** An endpoint's log: the filter and search form, one page of messages, and links to the newest and the older ones. */
export function messageLog(base: string, query: LogQuery, page: LogPage, csrf: string): Html {
  const kept = new URLSearchParams(FILTER_KEYS.flatMap((key): [string, string][] => (query[key] ? [[key, query[key]]] : [])));
  const link = (older: string | null) => {
    const params = new URLSearchParams(kept);
    if (older) params.set('older', older);
    const text = params.toString();
    return `${base}${text ? `?${text}` : ''}#log`;
  };
  return html`<form method="get" action="${base}#log" id="filter" class="filters" role="search">
      <label
        >Search
        <input type="search" name="search" value="${query.search ?? ''}" placeholder="message id, event id or rental uuid" size="36" />
      </label>
      <label
        >Event type
        <select name="eventType">
          <option value="">all</option>
          ${PUBLIC_EVENT_TYPES.map((t) => option(t, query.eventType))}
        </select></label
      >
      <label
        >Status
        <select name="status">
          <option value="">all</option>
          ${MESSAGE_STATUSES.map((s) => option(s, query.status))}
        </select></label
      >
      <label>Created from (UTC) <input type="datetime-local" name="from" value="${query.from ?? ''}" /></label>
      <label>Created before (UTC) <input type="datetime-local" name="to" value="${query.to ?? ''}" /></label>
      <button>Show</button>
    </form>
    ${page.messages.length === 0 ? html`<p id="no-messages">No messages${kept.size > 0 ? ' match' : ''}.</p>` : scrollBox('Messages', messageTable(page.messages, csrf))}
    <nav class="pager" aria-label="Pages of messages">
      ${query.older ? html`<a href="${link(null)}" id="newest">Newest messages</a>` : ''}
      ${page.older ? html`<a href="${link(page.older)}" id="older" rel="next">Older messages</a>` : ''}
    </nav>`;
}

const option = (value: string, selected: string | undefined): Html =>
  html`<option value="${value}" ${selected === value ? html` selected` : ''}>${value}</option>`;

function messageTable(messages: readonly MessageView[], csrf: string): Html {
  const rows = messages.map(
    (m) =>
      html`<tr class="message" data-id="${m.id}">
        <td>
          <a href="/portal/messages/${m.id}"><code>${m.id}</code></a
          ><br />${m.eventType}<br /><small>${m.eventId}</small>
        </td>
        <td class="${m.status === 'succeeded' ? 'ok' : m.status}" data-label="Status">
          ${m.status}${
            m.heldBy
              ? html`<br />held: waits for <code>${m.heldBy}</code>, an earlier event of its rental`
              : m.status === 'pending' && m.nextAttemptAt
                ? html`<br />next try ${utcText(m.nextAttemptAt)}`
                : ''
          }
        </td>
        <td data-label="Created">${utcText(m.createdAt)}</td>
        <td class="attempts" data-label="Attempts">${m.attempts}${m.lastResult ? html`, last: <span class="last-result">${m.lastResult}</span>` : ''}</td>
        <td>
          <form method="post" action="/portal/messages/${m.id}/resend">${csrfField(csrf)}<button class="resend">Resend</button></form>
        </td>
      </tr>`,
  );
  return html`<table id="messages" class="list">
    <tr>
      <th scope="col">Message</th>
      <th scope="col">Status</th>
      <th scope="col">Created</th>
      <th scope="col">Attempts</th>
      <th scope="col"><span class="visually-hidden">Action</span></th>
    </tr>
    ${rows}
  </table>`;
}
