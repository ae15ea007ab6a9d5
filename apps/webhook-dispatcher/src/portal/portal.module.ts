import { Module, type DynamicModule } from '@nestjs/common';
import { PortalController } from './portal.controller';
import { PORTAL_SECRET } from './portal.tokens';

@Module({})
export class PortalModule {
  static forRoot(portalTokenSecret: string): DynamicModule {
    return { module: PortalModule, controllers: [PortalController], providers: [{ provide: PORTAL_SECRET, useValue: portalTokenSecret }] };
  }
}
