import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import {
  changeSubscription,
  enableEndpoint,
  generateSecret,
  rotateEndpointSecret,
  SecretKeyring,
  StoredSecretUnreadable,
  type PortalGrant,
} from '@storage/webhooks';
import { Clock } from '../clock';
import { DeliveryEngine } from '../delivery/delivery-engine';
import { recoverFailed, resendMessage } from '../delivery/message-actions';
import { parseUtcTime } from './form-values';
import { logCursor, logFilter, type LogQuery } from './message-log';
import { messagePage } from './message-page';
import { PortalAccess, type Session } from './portal-access';
import { PortalPublic, PortalSession, PortalSessionGuard } from './portal-guard';
import { endpointPage, endpointsPage, notFoundPage, switchPortfolioPage } from './portal-pages';
import { PortalQueries } from './portal-queries';
import { PortalRefusalFilter } from './portal-refusal';
import { back, redirect, send } from './portal-replies';
import { PORTAL_SCRIPT, PORTAL_SCRIPT_ROUTE } from './portal-script';
import { setSession } from './portal-session';
import { PORTAL_BASE_URL } from './portal.tokens';
import { searchPage } from './search-page';
import { WeekRates } from './week-rates';

const DAY = 86_400_000;
/** The bounds operations 15 and 17 accept for `maxInFlight`. */
const MAX_IN_FLIGHT = { min: 1, max: 256 };
const ROTATION_OVERLAP_MS = DAY;

/**
 * The webhook portal behind operation 20: server-rendered pages scoped to the portfolio of the link (sign-in, endpoints,
 * an endpoint's log and settings, messages, search). Endpoint management and the catalog have controllers of their own.
 */
@Controller('portal')
@UseGuards(PortalSessionGuard)
@UseFilters(PortalRefusalFilter)
export class PortalController {
  private readonly queries: PortalQueries;
  private readonly weekRates: WeekRates;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(PortalAccess) private readonly access: PortalAccess,
    @Inject(SecretKeyring) private readonly keyring: SecretKeyring,
    @Inject(PORTAL_BASE_URL) private readonly portalBaseUrl: string,
  ) {
    this.queries = new PortalQueries(dataSource);
    this.weekRates = new WeekRates(this.queries);
  }

  /**
   * The link of operation 20: turns the token into a session cookie and drops it from the address bar. A link of
   * another portfolio than the open session's asks first: a link someone sent must not swap the portal under you.
   */
  @Get('login')
  @PortalPublic()
  async login(@Query('token') token: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const grant = await this.access.linkGrant(token);
    const current = await this.access.currentSession(request);
    if (current && current.grant.portfolio !== grant.portfolio) {
      return send(reply, 409, switchPortfolioPage(current.grant.portfolio, grant.portfolio, token!, this.access.csrf(current)));
    }
    setSession(reply, request, { token: token!, grant, now: this.clock.now(), portalBaseUrl: this.portalBaseUrl });
    redirect(reply, '/portal');
  }

  /** The confirmation of the switch page: a post of the open session (its form token), never a link alone. */
  @Post('login')
  @PortalPublic()
  async switchPortfolio(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const given = (request.body as { token?: unknown } | undefined)?.token;
    const token = typeof given === 'string' ? given : undefined;
    const current = await this.access.currentSession(request);
    if (current) this.access.checkFormToken(request, current);
    const grant = await this.access.linkGrant(token);
    setSession(reply, request, { token: token!, grant, now: this.clock.now(), portalBaseUrl: this.portalBaseUrl });
    redirect(reply, '/portal');
  }

  @Get()
  async endpoints(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Query('notice') notice: string | undefined): Promise<void> {
    const since = new Date(this.clock.now().getTime() - DAY);
    const endpoints = await this.queries.endpoints(grant.portfolio);
    const withRates = await Promise.all(endpoints.map(async (e) => ({ ...e, day: await this.queries.rates(e.id, since, 'hour', 24) })));
    send(reply, 200, endpointsPage(grant.portfolio, withRates, notice));
  }

  @Get('endpoints/:id')
  async endpoint(
    @PortalSession() session: Session,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Query() query: LogQuery & { reveal?: string; notice?: string },
  ): Promise<void> {
    const { grant } = session;
    const endpoint = await this.queries.endpoint(grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    const now = this.clock.now();
    const revealed = query.reveal === '1' ? await this.reveal(grant.portfolio, id) : { secret: null };
    const revealedSecret = revealed.secret;
    const notice = revealed.problem ?? query.notice;
    const [lastDay, week, log] = await Promise.all([
      this.queries.lastDay(id, now),
      this.weekRates.of(id, now),
      this.queries.messages(id, logFilter(query), logCursor(query)),
    ]);
    send(
      reply,
      200,
      endpointPage({
        endpoint,
        lastDay,
        week,
        log,
        logQuery: query,
        revealedSecret,
        now,
        csrf: this.access.csrf(session),
        ...(notice ? { notice } : {}),
      }),
    );
  }

  /** The opened secret, or why it cannot be opened (a key missing from this dispatcher's keyring): said on the page. */
  private async reveal(portfolio: string, id: string): Promise<{ secret: string | null; problem?: string }> {
    try {
      return { secret: this.keyring.open(await this.queries.storedSecret(portfolio, id), id) };
    } catch (error) {
      if (!(error instanceof StoredSecretUnreadable)) throw error;
      return { secret: null, problem: `The signing secret cannot be shown: ${error.message}` };
    }
  }

  @Post('endpoints/:id/rotate')
  async rotate(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    await rotateEndpointSecret(
      this.dataSource,
      grant.portfolio,
      id,
      this.keyring.seal(generateSecret(), id),
      new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS),
    );
    back(reply, id, 'Secret rotated; the previous secret keeps signing for 24 hours.', true);
  }

  @Post('endpoints/:id/enable')
  async enable(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    await enableEndpoint(this.dataSource, grant.portfolio, id);
    back(reply, id, 'Endpoint enabled. Recover its failed messages below to send them again.');
  }

  /** Operation 17's delivery settings from the portal: strict order per rental, and deliveries in flight at most. */
  @Post('endpoints/:id/delivery')
  async delivery(
    @PortalSession('grant') grant: PortalGrant,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const endpoint = await this.queries.endpoint(grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    const form = (request.body ?? {}) as { orderedDelivery?: unknown; maxInFlight?: unknown };
    const maxInFlight = typeof form.maxInFlight === 'string' && /^\d{1,3}$/.test(form.maxInFlight) ? Number(form.maxInFlight) : NaN;
    if (!(maxInFlight >= MAX_IN_FLIGHT.min && maxInFlight <= MAX_IN_FLIGHT.max)) {
      return back(reply, id, `Deliveries in flight must be a whole number from ${MAX_IN_FLIGHT.min} to ${MAX_IN_FLIGHT.max}.`);
    }
    const orderedDelivery = form.orderedDelivery === 'on';
    await changeSubscription(this.dataSource, grant.portfolio, endpoint.url, {
      url: null,
      eventTypes: null,
      description: null,
      facilityUuids: null,
      unitTypes: null,
      amenityUuids: null,
      orderedDelivery,
      maxInFlight,
    });
    this.engine.wake();
    back(
      reply,
      id,
      `Delivery settings saved: ${orderedDelivery ? 'strict order per rental' : 'order kept without failures'}, at most ${maxInFlight} in flight.`,
    );
  }

  @Post('endpoints/:id/recover')
  async recover(
    @PortalSession('grant') grant: PortalGrant,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    const since = parseUtcTime((request.body as { since?: unknown } | undefined)?.since);
    if (!since) return back(reply, id, 'Give the time to recover from.');
    const count = await this.dataSource.transaction((manager) => recoverFailed(manager, grant.portfolio, id, since, this.clock.now()));
    this.engine.wake();
    back(reply, id, `${count} failed messages queued again.`);
  }

  /** A message of any endpoint of the portfolio, by message id, event id or rental uuid. */
  @Get('search')
  async search(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Query('search') given: string | undefined): Promise<void> {
    const search = (given ?? '').trim();
    const found = search === '' ? [] : await this.queries.find(grant.portfolio, search);
    send(reply, 200, searchPage(search, found));
  }

  /** A message: its payload and headers as sent, every attempt with its answer. */
  @Get('messages/:id')
  async message(
    @PortalSession() session: Session,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Query('notice') notice: string | undefined,
  ): Promise<void> {
    const message = await this.queries.message(session.grant.portfolio, id);
    if (!message) return send(reply, 404, notFoundPage());
    const attempts = await this.queries.attempts([id]);
    send(reply, 200, messagePage(message, attempts, this.access.csrf(session), notice));
  }

  @Post('messages/:id/resend')
  async resend(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const resent = await this.dataSource.transaction((manager) => resendMessage(manager, grant.portfolio, id, this.clock.now()));
    if (!resent) return send(reply, 404, notFoundPage());
    this.engine.wake();
    redirect(reply, `/portal/messages/${id}?${new URLSearchParams({ notice: `Message ${id} queued to be sent again.` }).toString()}`);
  }

  /** The portal's script, from the package (no CDN). It holds no data: no session needed. */
  @Get(PORTAL_SCRIPT_ROUTE)
  @PortalPublic()
  script(@Res() reply: FastifyReply): void {
    void reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(PORTAL_SCRIPT);
  }

  /** Any other path under /portal (`/portal/` too): an HTML page saying so, not the framework's JSON. */
  @Get('*')
  @PortalPublic()
  unknownPage(@Res() reply: FastifyReply): void {
    send(reply, 404, notFoundPage());
  }

  @Post('*')
  @PortalPublic()
  unknownAction(@Res() reply: FastifyReply): void {
    send(reply, 404, notFoundPage());
  }
}
