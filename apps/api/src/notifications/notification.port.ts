import type { EntityManager } from 'typeorm';
import type { ContactMethod } from '../model/lease.entity';

/** Stands for a message's secret wherever the message is kept or listed: the secret itself is only sent. */
export const SECRET_PLACEHOLDER = '[hidden]';

export interface OutgoingNotification {
  portfolioUuid: string;
  leadUuid: string | null;
  personUuid: string | null;
  channel: ContactMethod;
  /** An email address or a ten-digit phone number. */
  recipient: string;
  subject: string;
  /** The text sent, with `SECRET_PLACEHOLDER` where the secret goes. */
  body: string;
  /** A one-time credential (a verification code, a signing link): sent, never stored, listed or logged. */
  secret: string | null;
  /** The lease whose signing link the message carries (kept with the message; the link is not). */
  leaseUuid: string | null;
}

/** The text as the recipient gets it. */
export const sentText = (notification: Pick<OutgoingNotification, 'body' | 'secret'>): string =>
  notification.secret === null ? notification.body : notification.body.replace(SECRET_PLACEHOLDER, notification.secret);

/**
 * Sends email and SMS. The embedded adapter stores and logs; a real mail or SMS adapter replaces it
 * behind this token. `manager` lets the message commit with the change that caused it.
 */
export interface NotificationPort {
  send(notification: OutgoingNotification, manager?: EntityManager): Promise<{ notificationUuid: string }>;
}

export const NOTIFICATION_PORT = Symbol('NOTIFICATION_PORT');
