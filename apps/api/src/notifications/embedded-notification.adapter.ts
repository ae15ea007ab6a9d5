import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sentText, type NotificationPort, type OutgoingNotification } from './notification.port';
import { query, sql } from '@storage/persistence';

/** Messages the embedded adapter keeps in memory, as a mail server would have received them. */
const MAILBOX_SIZE = 100;

/**
 * Default adapter: keeps every message in `notifications` (listed by the notifications extension) with its secret
 * left out, and logs it. The full text goes only to an in-memory mailbox of the last messages (tests, a developer's
 * debugger), where a real adapter would hand it to the mail or SMS provider.
 */
@Injectable()
export class EmbeddedNotificationAdapter implements NotificationPort {
  private readonly logger = new Logger('Notifications');
  readonly mailbox: { recipient: string; subject: string; body: string }[] = [];

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async send(notification: OutgoingNotification, manager: EntityManager = this.dataSource.manager): Promise<{ notificationUuid: string }> {
    const rows = await query(
      manager,
      sql<{ uuid: string }>(`INSERT INTO notifications (portfolio_uuid, lead_uuid, person_uuid, channel, recipient, subject, body, lease_uuid)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING uuid`),
      [
        notification.portfolioUuid,
        notification.leadUuid,
        notification.personUuid,
        notification.channel,
        notification.recipient,
        notification.subject,
        notification.body,
        notification.leaseUuid,
      ],
    );
    const notificationUuid = rows[0].uuid;
    this.mailbox.push({ recipient: notification.recipient, subject: notification.subject, body: sentText(notification) });
    if (this.mailbox.length > MAILBOX_SIZE) this.mailbox.shift();
    // The recipient is personal data: the log names the message, not the person.
    this.logger.log({ notificationUuid, channel: notification.channel, subject: notification.subject, leadUuid: notification.leadUuid }, 'notification sent');
    return { notificationUuid };
  }
}
