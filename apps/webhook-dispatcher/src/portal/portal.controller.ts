import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { uniqueViolation } from '@storage/persistence';
import {
  changeSubscription,
  checkPortalToken,
  disableEndpoint,
  enableEndpoint,
  generateSecret,
  insertSubscription,
  removeSubscription,
  rotateEndpointSecret,
  SecretKeyring,
  StoredSecretUnreadable,
  VENDOR_CONSTRAINT,
  type AddressPolicy,
  type HostResolver,
  type PortalGrant,
} from '@storage/webhooks';
import { isPublicEventType } from '@storage/domain';
import { Clock } from '../clock';
import { DeliveryEngine } from '../delivery/delivery-engine';
import { recoverFailed, resendMessage } from '../delivery/message-actions';
import { fanOut } from '../fan-out/fan-out';
import { testEvent } from '../fan-out/test-event';
import { catalogPage } from './catalog-page';
import { deleteEndpointPage, endpointFormPage, formOf, readEndpointForm, vetEndpointForm, type EndpointForm, type EndpointInput } from './endpoint-form';
import { parseUtcTime } from './form-values';
import { logCursor, logFilter, type LogQuery } from './message-log';
import { messagePage } from './message-page';
import { grantKeyActive } from './portal-keys';
import { deniedPage, endpointPage, endpointsPage, forbiddenPage, notFoundPage, switchPortfolioPage } from './portal-pages';
import { PORTAL_SCRIPT, PORTAL_SCRIPT_ROUTE } from './portal-script';
import { PortalQueries } from './portal-queries';
import { searchPage } from './search-page';
import { WeekRates } from './week-rates';
import { checkSession, csrfMatches, csrfToken, setSession } from './portal-session';
import { PORTAL_ADDRESS_POLICY, PORTAL_BASE_URL, PORTAL_HOST_RESOLVER, PORTAL_SECRET } from './portal.tokens';

const DAY = 86_400_000;
/** The bounds operations 15 and 17 accept for `maxInFlight`. */
const MAX_IN_FLIGHT = { min: 1, max: 256 };
const ROTATION_OVERLAP_MS = DAY;

/** An open portal session: the grant of its link and the link's token (the cookie). */
interface Session {
  grant: PortalGrant;
  token: string;
}

/** The webhook portal behind operation 20: server-rendered pages scoped to the portfolio of the link. */
@Controller('portal')
export class PortalController {
  private readonly queries: PortalQueries;
  private readonly weekRates: WeekRates;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(PORTAL_SECRET) private readonly secret: string,
    @Inject(SecretKeyring) private readonly keyring: SecretKeyring,
    @Inject(PORTAL_BASE_URL) private readonly portalBaseUrl: string,
    @Inject(PORTAL_ADDRESS_POLICY) private readonly addressPolicy: AddressPolicy,
    @Inject(PORTAL_HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {
    this.queries = new PortalQueries(dataSource);
    this.weekRates = new WeekRates(this.queries);
  }

  /**
   * The link of operation 20: turns the token into a session cookie and drops it from the address bar. A link of
   * another portfolio than the open session's asks first: a link someone sent must not swap the portal under you.
   */
  @Get('login')
  async login(@Query('token') token: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const grant = await this.linkGrant(token, reply);
    if (!grant) return;
    const current = await this.currentSession(request);
    if (current && current.grant.portfolio !== grant.portfolio) {
      return send(reply, 409, switchPortfolioPage(current.grant.portfolio, grant.portfolio, token!, csrfToken(this.secret, current.token)));
    }
    setSession(reply, request, { token: token!, grant, now: this.clock.now(), portalBaseUrl: this.portalBaseUrl });
    redirect(reply, '/portal');
  }

  /** The confirmation of the switch page: a post of the open session (its form token), never a link alone. */
  @Post('login')
  async switchPortfolio(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const given = (request.body as { token?: unknown } | undefined)?.token;
    const token = typeof given === 'string' ? given : undefined;
    const current = await this.currentSession(request);
    if (current && !csrfMatches(request, this.secret, current.token)) return send(reply, 403, forbiddenPage());
    const grant = await this.linkGrant(token, reply);
    if (!grant) return;
    setSession(reply, request, { token: token!, grant, now: this.clock.now(), portalBaseUrl: this.portalBaseUrl });
    redirect(reply, '/portal');
  }

  @Get()
  async endpoints(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('notice') notice: string | undefined): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const { grant } = session;
    const since = new Date(this.clock.now().getTime() - DAY);
    const endpoints = await this.queries.endpoints(grant.portfolio);
    const withRates = await Promise.all(endpoints.map(async (e) => ({ ...e, day: await this.queries.rates(e.id, since, 'hour', 24) })));
    send(reply, 200, endpointsPage(grant.portfolio, withRates, notice));
  }

  @Get('endpoints/new')
  async newEndpoint(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const form: EndpointForm = { vendorName: '', url: '', description: '', eventTypes: [], facilityUuids: '', unitTypes: '', amenityUuids: '' };
    send(reply, 200, endpointFormPage({ form, problems: [], csrf: csrfToken(this.secret, session.token) }));
  }

  /** Operation 15 from the portal: the same rules, a new secret sealed with the keyring (revealed on the endpoint's page). */
  @Post('endpoints')
  async addEndpoint(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.formSession(request, reply);
    if (!session) return;
    const form = readEndpointForm(request.body);
    const refuse = (problems: string[]) => send(reply, 400, endpointFormPage({ form, problems, csrf: csrfToken(this.secret, session.token) }));
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
  async editEndpoint(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const endpoint = await this.queries.endpoint(session.grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    send(reply, 200, endpointFormPage({ form: formOf(endpoint), problems: [], csrf: csrfToken(this.secret, session.token), editing: { id } }));
  }

  /** Operation 17 from the portal, and the URL too (under operation 15's rules); the vendor names the endpoint and stays. */
  @Post('endpoints/:id/edit')
  async saveEndpoint(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const session = await this.formSession(request, reply);
    if (!session) return;
    const endpoint = await this.queries.endpoint(session.grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    const form = { ...readEndpointForm(request.body), vendorName: endpoint.vendorName };
    const refuse = (problems: string[]) => send(reply, 400, endpointFormPage({ form, problems, csrf: csrfToken(this.secret, session.token), editing: { id } }));
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
  async disable(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    await disableEndpoint(this.dataSource, grant.portfolio, id, this.clock.now(), 'disabled in the portal');
    back(reply, id, 'Endpoint disabled: nothing is sent to it until it is enabled again.');
  }

  /** The confirmation a delete needs: a page of its own, so it takes two deliberate clicks (and works without scripts). */
  @Get('endpoints/:id/delete')
  async confirmDelete(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const endpoint = await this.queries.endpoint(session.grant.portfolio, id);
    if (!endpoint) return send(reply, 404, notFoundPage());
    send(reply, 200, deleteEndpointPage(endpoint, csrfToken(this.secret, session.token)));
  }

  /** Operation 18 for every event type at once: the endpoint goes, its messages and attempts with it. */
  @Post('endpoints/:id/delete')
  async deleteEndpoint(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
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

  @Get('endpoints/:id')
  async endpoint(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Query() query: LogQuery & { reveal?: string; notice?: string },
  ): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
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
        csrf: csrfToken(this.secret, session.token),
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
  async rotate(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
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
  async enable(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    await enableEndpoint(this.dataSource, grant.portfolio, id);
    back(reply, id, 'Endpoint enabled. Recover its failed messages below to send them again.');
  }

  /** Operation 17's delivery settings from the portal: strict order per rental, and deliveries in flight at most. */
  @Post('endpoints/:id/delivery')
  async delivery(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
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
  async recover(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
    if (!(await this.queries.endpoint(grant.portfolio, id))) return send(reply, 404, notFoundPage());
    const since = parseUtcTime((request.body as { since?: unknown } | undefined)?.since);
    if (!since) return back(reply, id, 'Give the time to recover from.');
    const count = await this.dataSource.transaction((manager) => recoverFailed(manager, grant.portfolio, id, since, this.clock.now()));
    this.engine.wake();
    back(reply, id, `${count} failed messages queued again.`);
  }

  /** A message of any endpoint of the portfolio, by message id, event id or rental uuid. */
  @Get('search')
  async search(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('search') given: string | undefined): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const search = (given ?? '').trim();
    const found = search === '' ? [] : await this.queries.find(session.grant.portfolio, search);
    send(reply, 200, searchPage(search, found));
  }

  @Get('catalog')
  async catalog(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('notice') notice: string | undefined): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const endpoints = await this.queries.endpoints(session.grant.portfolio);
    send(reply, 200, catalogPage({ endpoints, now: this.clock.now(), csrf: csrfToken(this.secret, session.token), ...(notice ? { notice } : {}) }));
  }

  /** Operation 19's test message of the type, to the one endpoint chosen (enabled and subscribed to it, as operation 19 asks). */
  @Post('catalog/:type/send')
  async sendExample(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('type') type: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
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

  /** A message: its payload and headers as sent, every attempt with its answer. */
  @Get('messages/:id')
  async message(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Query('notice') notice: string | undefined,
  ): Promise<void> {
    const session = await this.session(request, reply);
    if (!session) return;
    const message = await this.queries.message(session.grant.portfolio, id);
    if (!message) return send(reply, 404, notFoundPage());
    const attempts = await this.queries.attempts([id]);
    send(reply, 200, messagePage(message, attempts, csrfToken(this.secret, session.token), notice));
  }

  @Post('messages/:id/resend')
  async resend(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string): Promise<void> {
    const grant = await this.action(request, reply);
    if (!grant) return;
    const resent = await this.dataSource.transaction((manager) => resendMessage(manager, grant.portfolio, id, this.clock.now()));
    if (!resent) return send(reply, 404, notFoundPage());
    this.engine.wake();
    redirect(reply, `/portal/messages/${id}?${new URLSearchParams({ notice: `Message ${id} queued to be sent again.` }).toString()}`);
  }

  /** The portal's script, from the package (no CDN). It holds no data: no session needed. */
  @Get(PORTAL_SCRIPT_ROUTE)
  script(@Res() reply: FastifyReply): void {
    void reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(PORTAL_SCRIPT);
  }

  /** Any other path under /portal (`/portal/` too): an HTML page saying so, not the framework's JSON. */
  @Get('*')
  unknownPage(@Res() reply: FastifyReply): void {
    send(reply, 404, notFoundPage());
  }

  @Post('*')
  unknownAction(@Res() reply: FastifyReply): void {
    send(reply, 404, notFoundPage());
  }

  /** The grant of a login link whose key is still active, or undefined after answering with the denied page. */
  private async linkGrant(token: string | undefined, reply: FastifyReply): Promise<PortalGrant | undefined> {
    const check = token ? checkPortalToken(token, this.clock.now(), this.secret) : ({ ok: false, reason: 'missing' } as const);
    if (!check.ok) return send(reply, 401, deniedPage(check.reason));
    if (!(await grantKeyActive(this.dataSource, check.grant))) return send(reply, 401, deniedPage('revoked'));
    return check.grant;
  }

  /** The open session when it is valid and its key active, else undefined (nothing answered). */
  private async currentSession(request: FastifyRequest): Promise<Session | undefined> {
    const check = checkSession(request, this.clock.now(), this.secret);
    if (!check.ok || !(await grantKeyActive(this.dataSource, check.grant))) return undefined;
    return check;
  }

  /**
   * The session of a page, or undefined after answering with the denied page: no data for an expired or forged
   * link, nor once its API key is revoked (checked on every request, not only at login).
   */
  private async session(request: FastifyRequest, reply: FastifyReply): Promise<Session | undefined> {
    const check = checkSession(request, this.clock.now(), this.secret);
    if (!check.ok) return send(reply, 401, deniedPage(check.reason));
    if (!(await grantKeyActive(this.dataSource, check.grant))) return send(reply, 401, deniedPage('revoked'));
    return check;
  }

  /** The grant of a form post: a session, and the form token of that very session (403 and nothing done otherwise). */
  private async action(request: FastifyRequest, reply: FastifyReply): Promise<PortalGrant | undefined> {
    return (await this.formSession(request, reply))?.grant;
  }

  /** The session of a form post, checked as `action` does, for a form page shown again with what was refused. */
  private async formSession(request: FastifyRequest, reply: FastifyReply): Promise<Session | undefined> {
    const session = await this.session(request, reply);
    if (!session) return undefined;
    if (!csrfMatches(request, this.secret, session.token)) return send(reply, 403, forbiddenPage());
    return session;
  }
}

/** Answers a page; undefined, so a guard can `return send(…)`. */
function send(reply: FastifyReply, status: number, page: string): undefined {
  void reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
    )
    .send(page);
  return undefined;
}

function redirect(reply: FastifyReply, location: string): void {
  void reply.header('x-content-type-options', 'nosniff').redirect(location, 303);
}

function back(reply: FastifyReply, endpointId: string, notice: string, reveal = false): void {
  const query = new URLSearchParams({ notice, ...(reveal ? { reveal: '1' } : {}) });
  redirect(reply, `/portal/endpoints/${endpointId}?${query.toString()}`);
}
