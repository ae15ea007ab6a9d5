import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { isPublicEventType } from '@storage/domain';
import type { PortalGrant } from '@storage/webhooks';
import { Clock } from '../clock';
import { DeliveryEngine } from '../delivery/delivery-engine';
import { fanOut } from '../fan-out/fan-out';
import { testEvent } from '../fan-out/test-event';
import { catalogPage } from './catalog-page';
import { PortalAccess, type Session } from './portal-access';
import { PortalSession, PortalSessionGuard } from './portal-guard';
import { notFoundPage } from './portal-pages';
import { PortalQueries } from './portal-queries';
import { PortalRefusalFilter } from './portal-refusal';
import { redirect, send } from './portal-replies';

/** The event catalog, and its "Send example": operation 19's test message to one endpoint. */
@Controller('portal')
@UseGuards(PortalSessionGuard)
@UseFilters(PortalRefusalFilter)
export class PortalCatalogController {
  private readonly queries: PortalQueries;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(PortalAccess) private readonly access: PortalAccess,
  ) {
    this.queries = new PortalQueries(dataSource);
  }

  @Get('catalog')
  async catalog(@PortalSession() session: Session, @Res() reply: FastifyReply, @Query('notice') notice: string | undefined): Promise<void> {
    const endpoints = await this.queries.endpoints(session.grant.portfolio);
    send(reply, 200, catalogPage({ endpoints, now: this.clock.now(), csrf: this.access.csrf(session), ...(notice ? { notice } : {}) }));
  }

  /** Operation 19's test message of the type, to the one endpoint chosen (enabled and subscribed to it, as operation 19 asks). */
  @Post('catalog/:type/send')
  async sendExample(
    @PortalSession('grant') grant: PortalGrant,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('type') type: string,
  ): Promise<void> {
    const endpointId = (request.body as { endpointId?: unknown } | undefined)?.endpointId;
    const endpoint = typeof endpointId === 'string' ? await this.queries.endpoint(grant.portfolio, endpointId) : undefined;
    if (!isPublicEventType(type) || !endpoint) return send(reply, 404, notFoundPage());
    const now = this.clock.now();
    const event = testEvent(grant.portfolio, type, now);
    const created = await this.dataSource.transaction((manager) => fanOut(manager, event, { now, ignoreFilters: true, onlyEndpoint: endpoint.id }));
    if (created === 0) {
      return redirect(
        reply,
        `/portal/catalog?${new URLSearchParams({ notice: `${endpoint.url} is disabled or not subscribed to ${type}: nothing was sent.` }).toString()}#${type}`,
      );
    }
    this.engine.wake();
    const log = new URLSearchParams({ search: event.eventId, notice: `Example ${type} queued to ${endpoint.url}, marked "test": true.` });
    redirect(reply, `/portal/endpoints/${endpoint.id}?${log.toString()}#log`);
  }
}
