import { Module, type DynamicModule } from '@nestjs/common';
import { AddressPolicy, systemResolver, type Cidr } from '@storage/webhooks';
import { PortalAccess } from './portal-access';
import { PortalCatalogController } from './portal-catalog.controller';
import { PortalEndpointsController } from './portal-endpoints.controller';
import { PortalController } from './portal.controller';
import { PORTAL_ADDRESS_POLICY, PORTAL_BASE_URL, PORTAL_HOST_RESOLVER, PORTAL_SECRET } from './portal.tokens';

@Module({})
export class PortalModule {
  static forRoot(options: { portalTokenSecret: string; portalBaseUrl: string; allowedSubnets: Cidr[] }): DynamicModule {
    return {
      module: PortalModule,
      controllers: [PortalController, PortalEndpointsController, PortalCatalogController],
      providers: [
        PortalAccess,
        { provide: PORTAL_SECRET, useValue: options.portalTokenSecret },
        { provide: PORTAL_BASE_URL, useValue: options.portalBaseUrl },
        { provide: PORTAL_ADDRESS_POLICY, useValue: new AddressPolicy(options.allowedSubnets) },
        { provide: PORTAL_HOST_RESOLVER, useValue: systemResolver },
      ],
    };
  }
}
