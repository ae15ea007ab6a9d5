import { Module, type DynamicModule } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { LeasesController } from './leases.controller';
import { LeasesService, PUBLIC_BASE_URL } from './leases.service';

@Module({})
export class LeasesModule {
  static forRoot(options: { publicBaseUrl: string }): DynamicModule {
    return {
      module: LeasesModule,
      imports: [NotificationsModule],
      controllers: [LeasesController],
      providers: [LeasesService, { provide: PUBLIC_BASE_URL, useValue: options.publicBaseUrl }],
      exports: [LeasesService],
    };
  }
}
