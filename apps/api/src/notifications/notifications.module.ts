import { Module } from '@nestjs/common';
import { EmbeddedNotificationAdapter } from './embedded-notification.adapter';
import { NOTIFICATION_PORT } from './notification.port';
import { NotificationsController } from './notifications.controller';

/** The notification port, for the modules that send. */
@Module({
  providers: [{ provide: NOTIFICATION_PORT, useClass: EmbeddedNotificationAdapter }],
  exports: [NOTIFICATION_PORT],
})
export class NotificationsModule {}

/** The notifications extension (the listing), once in the app. */
@Module({ controllers: [NotificationsController] })
export class NotificationsListingModule {}
