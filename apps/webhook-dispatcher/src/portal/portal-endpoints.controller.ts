import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { uniqueViolation } from '@storage/persistence';
import {
  changeSubscription,
  disableEndpoint,
  generateSecret,
  insertSubscription,
  removeSubscription,
  SecretKeyring,
  VENDOR_CONSTRAINT,
  type AddressPolicy,
  type HostResolver,
  type PortalGrant,
} from '@storage/webhooks';
import { Clock } from '../clock';
import { deleteEndpointPage, endpointFormPage, formOf, readEndpointForm, vetEndpointForm, type EndpointForm, type EndpointInput } from './endpoint-form';
import { PortalAccess, type Session } from './portal-access';
import { PortalSession, PortalSessionGuard } from './portal-guard';
import { notFoundPage } from './portal-pages';
import { PortalQueries } from './portal-queries';
import { PortalRefusalFilter } from './portal-refusal';
import { back, redirect, send } from './portal-replies';
import { PORTAL_ADDRESS_POLICY, PORTAL_HOST_RESOLVER } from './portal.tokens';

/** Operations 15, 17 and 18 from the portal: endpoints added, edited, disabled and deleted within the session's portfolio. */
@Controller('portal')
@UseGuards(PortalSessionGuard)
@UseFilters(PortalRefusalFilter)
export class PortalEndpointsController {
  private readonly queries: PortalQueries;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(PortalAccess) private readonly access: PortalAccess,
    @Inject(SecretKeyring) private readonly keyring: SecretKeyring,
    @Inject(PORTAL_ADDRESS_POLICY) private readonly addressPolicy: AddressPolicy,
    @Inject(PORTAL_HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {
    this.queries = new PortalQueries(dataSource);
  }

  @Get('endpoints/new')
  async newEndpoint(@PortalSession() session: Session, @Res() reply: FastifyReply): Promise<void> {
    const form: EndpointForm = { vendorName: '', url: '', description: '', eventTypes: [], facilityUuids: '', unitTypes: '', amenityUuids: '' };
    send(reply, 200, endpointFormPage({ form, problems: [], csrf: this.access.csrf(session) }));
  }

  /** Operation 15 from the portal: the same rules, a new secret sealed with the keyring (revealed on the endpoint's page). */
  @Post('endpoints')
  async addEndpoint(@PortalSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = readEndpointForm(request.body);
    const refuse = (problems: string[]) => send(reply, 400, endpointFormPage({ form, problems, csrf: this.access.csrf(session) }));
    const vetted = await this.vetted(form);
    if (!vetted.ok) return refuse(vetted.problems);
    const id = randomUUID();
    try {
      await insertSubscription(this.dataSource, {
        id,
        portfolio: session.grant.portfolio,
        ...vetted.input,
        sealedSecret: this.keyring.seal(generateSecret(), id),
      });
    } catch (error) {
      const problem = this.duplicate(error, vetted.input);
      if (problem === undefined) throw error;
      return refuse([problem]);
    }
    back(reply, id, 'Endpoint added. Its signing secret is below; give it to the receiver to verify signatures.', true);
  }

  @Get('endpoints/:id/edit')
  async editEndpoint(@PortalSession() session: Session, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const endpoint = await this.queries.endpoint(session.grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    send(reply, 200, endpointFormPage({ form: formOf(endpoint), problems: [], csrf: this.access.csrf(session), editing: { id } }));
  }

  /** Operation 17 from the portal, and the URL too (under operation 15's rules); the vendor names the endpoint and stays. */
  @Post('endpoints/:id/edit')
  async saveEndpoint(@PortalSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const endpoint = await this.queries.endpoint(session.grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    const form = { ...readEndpointForm(request.body), vendorName: endpoint.vendorName };
    const refuse = (problems: string[]) => send(reply, 400, endpointFormPage({ form, problems, csrf: this.access.csrf(session), editing: { id } }));
    const vetted = await this.vetted(form);
    if (!vetted.ok) return refuse(vetted.problems);
    const { url, description, eventTypes, facilityUuids, unitTypes, amenityUuids } = vetted.input;
    try {
      await changeSubscription(this.dataSource, session.grant.portfolio, endpoint.url, {
        url,
        description,
        eventTypes,
        facilityUuids,
        unitTypes,
        amenityUuids,
        orderedDelivery: null,
        maxInFlight: null,
      });
    } catch (error) {
      const problem = this.duplicate(error, vetted.input);
      if (problem === undefined) throw error;
      return refuse([problem]);
    }
    back(reply, id, 'Endpoint saved.');
  }

  @Post('endpoints/:id/disable')
  async disable(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    await disableEndpoint(this.dataSource, grant.portfolio, id, this.clock.now(), 'disabled in the portal');
    back(reply, id, 'Endpoint disabled: nothing is sent to it until it is enabled again.');
  }

  /** The confirmation a delete needs: a page of its own, so it takes two deliberate clicks (and works without scripts). */
  @Get('endpoints/:id/delete')
  async confirmDelete(@PortalSession() session: Session, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const endpoint = await this.queries.endpoint(session.grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    send(reply, 200, deleteEndpointPage(endpoint, this.access.csrf(session)));
  }

  /** Operation 18 for every event type at once: the endpoint goes, its messages and attempts with it. */
  @Post('endpoints/:id/delete')
  async deleteEndpoint(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const endpoint = await this.queries.endpoint(grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    await removeSubscription(this.dataSource, id);
    redirect(reply, `/portal?${new URLSearchParams({ notice: `Endpoint ${endpoint.url} deleted.` }).toString()}`);
  }

  private vetted(form: EndpointForm): ReturnType<typeof vetEndpointForm> {
    return vetEndpointForm(form, this.addressPolicy, this.resolve);
  }

  /** Why the portfolio refused the endpoint (a vendor or URL it has already), or undefined for any other error. */
  private duplicate(error: unknown, input: EndpointInput): string | undefined {
    const violation = uniqueViolation(error);
    if (violation === undefined) return undefined;
    return violation.constraint === VENDOR_CONSTRAINT
      ? `Vendor ${input.vendorName} already has an endpoint in this portfolio.`
      : `${input.url} is already an endpoint of this portfolio.`;
  }
}
