import { Module, type DynamicModule } from '@nestjs/common';
import { EmbeddedNotificationAdapter } from './embedded-notification.adapter';
import { NOTIFICATION_PORT } from './notification.port';
import { NOTIFICATIONS_PUBLIC_BASE_URL, NotificationsController } from './notifications.controller';

/** The notification port, for the modules that send. */
@Module({
  providers: [{ provide: NOTIFICATION_PORT, useClass: EmbeddedNotificationAdapter }],
  exports: [NOTIFICATION_PORT],
})
export class NotificationsModule {}

/** The notifications extension (the listing), once in the app: it rebuilds signing links from PUBLIC_BASE_URL. */
@Module({})
export class NotificationsListingModule {
  static forRoot(options: { publicBaseUrl: string }): DynamicModule {
    return {
      module: NotificationsListingModule,
      controllers: [NotificationsController],
      providers: [{ provide: NOTIFICATIONS_PUBLIC_BASE_URL, useValue: options.publicBaseUrl }],
    };
  }
}
