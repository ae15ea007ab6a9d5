import { Module } from '@nestjs/common';
import { EmbeddedNotificationAdapter } from './embedded-notification.adapter';
import { NOTIFICATION_PORT } from './notification.port';
import { NotificationsController } from './notifications.controller';

@Module({
  controllers: [NotificationsController],
  providers: [{ provide: NOTIFICATION_PORT, useClass: EmbeddedNotificationAdapter }],
  exports: [NOTIFICATION_PORT],
})
export class NotificationsModule {}
