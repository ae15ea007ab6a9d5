import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RouteOptions } from 'fastify';
import { DataSource } from 'typeorm';
import { createHttpAdapter } from '@storage/platform';
import { AddressPolicy, SecretKeyring, type HostResolver } from '@storage/webhooks';
import { Clock, SystemClock } from '../../src/clock';
import { DeliveryEngine } from '../../src/delivery/delivery-engine';
import { PortalAccess } from '../../src/portal/portal-access';
import { PortalCatalogController } from '../../src/portal/portal-catalog.controller';
import { PortalEndpointsController } from '../../src/portal/portal-endpoints.controller';
import { PortalController } from '../../src/portal/portal.controller';
import { PORTAL_ADDRESS_POLICY, PORTAL_BASE_URL, PORTAL_HOST_RESOLVER, PORTAL_SECRET } from '../../src/portal/portal.tokens';
import { testKeyring } from './secret-keys';

/** The test's DNS: `*.example` names are public addresses, `*.internal` a private one, anything else does not resolve. */
export const testResolver: HostResolver = async (host) => (host.endsWith('.example') ? ['93.184.216.34'] : host.endsWith('.internal') ? ['10.0.0.7'] : []);

/**
 * The portal in-process over a database, as `deploy/` runs it: behind one proxy (TRUST_PROXY=1), so
 * X-Forwarded-Proto tells how the browser reached it; `portalBaseUrl` is its PORTAL_BASE_URL (by default plain http,
 * as on a developer's machine). `onRoute` sees each route the portal registers.
 */
export async function portalTestApp(
  db: DataSource,
  secret: string,
  options: { onRoute?: (route: RouteOptions) => void; portalBaseUrl?: string } = {},
): Promise<NestFastifyApplication> {
  const { onRoute, portalBaseUrl = 'http://localhost:3001' } = options;
  @Module({
    controllers: [PortalController, PortalEndpointsController, PortalCatalogController],
    providers: [
      PortalAccess,
      { provide: DataSource, useValue: db },
      { provide: Clock, useValue: new SystemClock() },
      { provide: DeliveryEngine, useValue: { wake: () => undefined } },
      { provide: PORTAL_SECRET, useValue: secret },
      { provide: PORTAL_BASE_URL, useValue: portalBaseUrl },
      { provide: SecretKeyring, useValue: testKeyring },
      { provide: PORTAL_ADDRESS_POLICY, useValue: new AddressPolicy([]) },
      { provide: PORTAL_HOST_RESOLVER, useValue: testResolver },
    ],
  })
  class PortalTestModule {}
  const app = await NestFactory.create<NestFastifyApplication>(PortalTestModule, createHttpAdapter({ trustProxy: 1 }), { logger: false });
  if (onRoute !== undefined) app.getHttpAdapter().getInstance().addHook('onRoute', onRoute);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
