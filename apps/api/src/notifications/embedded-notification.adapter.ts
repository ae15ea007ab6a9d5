import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { NotificationPort, OutgoingNotification } from './notification.port';

/** Default adapter: keeps every message in `notifications` (listed by the notifications extension) and logs it. */
@Injectable()
export class EmbeddedNotificationAdapter implements NotificationPort {
  private readonly logger = new Logger('Notifications');

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async send(notification: OutgoingNotification, manager: EntityManager = this.dataSource.manager): Promise<{ notificationUuid: string }> {
    const rows: { uuid: string }[] = await manager.query(
      `INSERT INTO notifications (portfolio_uuid, lead_uuid, person_uuid, channel, recipient, subject, body, link)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING uuid`,
      [
        notification.portfolioUuid,
        notification.leadUuid,
        notification.personUuid,
        notification.channel,
        notification.recipient,
        notification.subject,
        notification.body,
        notification.link,
      ],
    );
    const notificationUuid = rows[0].uuid;
    // The recipient is personal data: the log names the message, not the person.
    this.logger.log({ notificationUuid, channel: notification.channel, subject: notification.subject, leadUuid: notification.leadUuid }, 'notification sent');
    return { notificationUuid };
  }
}
