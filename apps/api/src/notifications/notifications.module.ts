import { type DynamicModule, Global, Module } from '@nestjs/common';
import { EmbeddedNotificationAdapter, MAILBOX_DIR } from './embedded-notification.adapter';
import { NOTIFICATION_PORT } from './notification.port';
import { NotificationsController } from './notifications.controller';

/** The notification port, for the modules that send. */
@Module({
  providers: [{ provide: NOTIFICATION_PORT, useClass: EmbeddedNotificationAdapter }],
  exports: [NOTIFICATION_PORT],
})
export class NotificationsModule {}

/**
 * Once in the app: the embedded adapter's local mailbox directory (config `mailboxDir`; null: none), global as
 * several modules import NotificationsModule. Without it the adapter writes no files.
 */
@Global()
@Module({})
export class NotificationsMailboxModule {
  static forRoot(mailboxDir: string | null): DynamicModule {
    return { module: NotificationsMailboxModule, providers: [{ provide: MAILBOX_DIR, useValue: mailboxDir }], exports: [MAILBOX_DIR] };
  }
}

/** The notifications extension (the listing), once in the app. */
@Module({ controllers: [NotificationsController] })
export class NotificationsListingModule {}
