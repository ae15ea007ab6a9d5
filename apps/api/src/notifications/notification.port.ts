import type { EntityManager } from 'typeorm';
import type { ContactMethod } from '../model/lease.entity';

export interface OutgoingNotification {
  portfolioUuid: string;
  leadUuid: string | null;
  personUuid: string | null;
  channel: ContactMethod;
  /** An email address or a ten-digit phone number. */
  recipient: string;
  subject: string;
  body: string;
  link: string | null;
}

/**
 * Sends email and SMS. The embedded adapter stores and logs; a real mail or SMS adapter replaces it
 * behind this token. `manager` lets the message commit with the change that caused it.
 */
export interface NotificationPort {
  send(notification: OutgoingNotification, manager?: EntityManager): Promise<{ notificationUuid: string }>;
}

export const NOTIFICATION_PORT = Symbol('NOTIFICATION_PORT');
