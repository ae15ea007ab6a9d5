import { Module, type DynamicModule } from '@nestjs/common';
import { PortalController } from './portal.controller';
import { PORTAL_BASE_URL, PORTAL_SECRET } from './portal.tokens';

@Module({})
export class PortalModule {
  static forRoot(options: { portalTokenSecret: string; portalBaseUrl: string }): DynamicModule {
    return {
      module: PortalModule,
      controllers: [PortalController],
      providers: [
        { provide: PORTAL_SECRET, useValue: options.portalTokenSecret },
        { provide: PORTAL_BASE_URL, useValue: options.portalBaseUrl },
      ],
    };
  }
}
