import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AfterCommit } from './after-commit';
import { LocalMailbox } from './local-mailbox';
import { sentText, type NotificationPort, type OutgoingNotification } from './notification.port';
import { query, sql } from '@storage/persistence';

/** Messages the embedded adapter keeps in memory, as a mail server would have received them. */
const MAILBOX_SIZE = 100;

/** The directory the embedded adapter delivers full texts to (config `mailboxDir`), or null: none. */
export const MAILBOX_DIR = Symbol('MAILBOX_DIR');

/**
 * Default adapter: keeps every message in `notifications` (listed by the notifications extension) with its secret
 * left out, and logs it. The full text goes where a real adapter would hand it to the mail or SMS provider: to an
 * in-memory mailbox of the last messages (tests, a developer's debugger) and, outside production, to a local
 * mailbox directory, `DATA_DIR/mailbox` (`LocalMailbox`), once the transaction that sent it has committed.
 */
@Injectable()
export class EmbeddedNotificationAdapter implements NotificationPort, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');
  readonly mailbox: { recipient: string; subject: string; body: string }[] = [];
  private readonly localMailbox: LocalMailbox | null;
  private readonly afterCommit: AfterCommit | null;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Optional() @Inject(MAILBOX_DIR) mailboxDir: string | null = null,
  ) {
    this.localMailbox = mailboxDir ? new LocalMailbox(mailboxDir) : null;
    this.afterCommit = mailboxDir ? new AfterCommit(dataSource) : null;
  }

  onModuleDestroy(): void {
    this.afterCommit?.detach();
  }

  async send(notification: OutgoingNotification, manager: EntityManager = this.dataSource.manager): Promise<{ notificationUuid: string }> {
    const sentAt = new Date();
    const rows = await query(
      manager,
      sql<
        { uuid: string },
        [string, string | null, string | null, string, string, string, string, string | null]
      >(`INSERT INTO notifications (portfolio_uuid, lead_uuid, person_uuid, channel, recipient, subject, body, lease_uuid)
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
    if (this.localMailbox && this.afterCommit) {
      const localMailbox = this.localMailbox;
      const message = {
        notificationUuid,
        sentAt,
        channel: notification.channel,
        recipient: notification.recipient,
        subject: notification.subject,
        text: sentText(notification),
      };
      // A message whose transaction rolls back was never sent: it is written once that transaction commits.
      await this.afterCommit.run(manager, async () => {
        try {
          await localMailbox.deliver(message);
        } catch (error) {
          // The message is sent (stored, committed) all the same: a mail catcher's failure is not the sender's.
          this.logger.warn(
            { notificationUuid, directory: localMailbox.directory, error: (error as Error).message },
            'notification not written to the local mailbox',
          );
        }
      });
    }
    // The recipient is personal data: the log names the message, not the person.
    this.logger.log({ notificationUuid, channel: notification.channel, subject: notification.subject, leadUuid: notification.leadUuid }, 'notification sent');
    return { notificationUuid };
  }
}
