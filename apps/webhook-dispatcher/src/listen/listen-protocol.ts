import type { RawData } from 'ws';

/*
 * The messages of a `webhooks listen` stream (a WebSocket at the dispatcher's /listen), as JSON text frames. The
 * dispatcher sends `ready` once, then a `delivery` per attempt; the listener answers each delivery with an `answer`.
 */

/** The first message: the session and the secret its deliveries are signed with. */
export interface ReadyMessage {
  type: 'ready';
  sessionId: string;
  secret: string;
  eventTypes: string[];
}

/** An attempt of a message: the request to POST to the local receiver, signed as any endpoint's. */
export interface DeliveryMessage {
  type: 'delivery';
  /** The message id, also the `hook-id` header: a retry carries the same. */
  id: string;
  eventType: string;
  headers: Record<string, string>;
  body: string;
}

/** What the local receiver answered (`status`, `body`), or why it could not be reached (`error`). */
export type AnswerMessage = { type: 'answer'; id: string; status: number; body: string } | { type: 'answer'; id: string; error: string };

/** Where a listener opens its session; the grant goes in `Authorization: Bearer`, a session to resume in this header. */
export const LISTEN_PATH = '/listen';
export const RESUME_HEADER = 'x-listen-session';

/** A text frame's content (ws hands frames over as buffers). */
export function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

export function isAnswer(value: unknown): value is AnswerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.type !== 'answer' || typeof message.id !== 'string') return false;
  return (typeof message.status === 'number' && typeof message.body === 'string') || typeof message.error === 'string';
}
