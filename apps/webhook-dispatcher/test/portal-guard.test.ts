import { randomUUID } from 'node:crypto';
import { Controller, Get, Module, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createHttpAdapter } from '@storage/platform';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { issuePortalToken, type PortalGrant } from '@storage/webhooks';
import { Clock, SystemClock } from '../src/clock';
import { PortalAccess } from '../src/portal/portal-access';
import { PortalPublic, PortalSession, PortalSessionGuard } from '../src/portal/portal-guard';
import { deniedPage, forbiddenPage } from '../src/portal/portal-pages';
import { PortalRefusalFilter } from '../src/portal/portal-refusal';
import { csrfToken, SESSION_COOKIE } from '../src/portal/portal-session';
import { PORTAL_SECRET } from '../src/portal/portal.tokens';

const SECRET = 'portal-guard-secret-at-least-32-characters';

/** What the probe's handlers ran: a refused request must run none. */
const ran: string[] = [];

/** A portal controller as a new one would be written: the guard and its filter, handlers with no decorator of their own. */
@Controller('portal')
@UseGuards(PortalSessionGuard)
@UseFilters(PortalRefusalFilter)
class ProbeController {
  @Get('probe')
  page(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply): void {
    ran.push('page');
    void reply.send(`page of ${grant.portfolio}`);
  }

  @Post('probe')
  action(@PortalSession('grant') grant: PortalGrant, @Res() reply: FastifyReply): void {
    ran.push('action');
    void reply.send(`action of ${grant.portfolio}`);
  }

  @Get('open')
  @PortalPublic()
  open(@Res() reply: FastifyReply): void {
    void reply.send('open');
  }
}

/** Issue 38: the portal's session is a guard, so a handler is protected unless it says it is public. */
describe('portal session guard', () => {
  let database: TestDatabase;
  let db: DataSource;
  let app: NestFastifyApplication;
  const keys = { active: '', revoked: '' };

  const cookieOf = (token: string) => `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
  const tokenOf = (key: string, issuedAt = new Date()) => issuePortalToken('acme', issuedAt, SECRET, key).token;
  const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { cookie: cookieOf(token) } : {} });
  const post = (token: string, form: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/portal/probe',
      headers: { cookie: cookieOf(token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'portal-guard-test' }).initialize();
    const { portfolioUuid } = await insertRentalParents(db, { portfolioId: 'acme' });
    for (const name of ['active', 'revoked'] as const) {
      const [key] = await query(
        db,
        sql<{
          uuid: string;
        }>(`INSERT INTO api_keys (key_hash, key_prefix, scope, portfolio_uuids, revoked_at) VALUES ($1, 'sk_guard', 'write', $2, $3) RETURNING uuid
           -- owner-bypass: an api key, a row of apps/api, which the dispatcher cannot depend on`),
        [randomUUID(), [portfolioUuid], name === 'revoked' ? new Date() : null],
      );
      keys[name] = key.uuid;
    }
    @Module({
      controllers: [ProbeController],
      providers: [
        PortalAccess,
        { provide: DataSource, useValue: db },
        { provide: Clock, useValue: new SystemClock() },
        { provide: PORTAL_SECRET, useValue: SECRET },
      ],
    })
    class ProbeModule {}
    app = await NestFactory.create<NestFastifyApplication>(ProbeModule, createHttpAdapter(), { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(() => {
    ran.length = 0;
  });

  it.each([
    ['missing', undefined],
    ['invalid', () => `${tokenOf(keys.active).slice(0, -3)}xyz`],
    ['expired', () => tokenOf(keys.active, new Date(Date.now() - 30 * 86_400_000))],
    ['revoked', () => tokenOf(keys.revoked)],
  ] as const)('answers a handler without a decorator with the denied page of a %s link (401), running nothing', async (reason, token) => {
    const answer = await get('/portal/probe', token?.());
    expect(answer.statusCode).toBe(401);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toBe(deniedPage(reason));
    expect(ran).toEqual([]);
  });

  it('hands the checked session to a page', async () => {
    const answer = await get('/portal/probe', tokenOf(keys.active));
    expect({ status: answer.statusCode, body: answer.body }).toEqual({ status: 200, body: 'page of acme' });
  });

  it('asks every POST of a handler without a decorator for the session’s form token (403, running nothing)', async () => {
    const token = tokenOf(keys.active);
    // None, a forged one, and another session's (another expiry, so another token).
    const refused: Record<string, string>[] = [{}, { csrf: 'forged' }, { csrf: csrfToken(SECRET, tokenOf(keys.active, new Date(Date.now() - 60_000))) }];
    for (const form of refused) {
      const answer = await post(token, form);
      expect(answer.statusCode).toBe(403);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toBe(forbiddenPage());
    }
    expect(ran).toEqual([]);
    const answer = await post(token, { csrf: csrfToken(SECRET, token) });
    expect({ status: answer.statusCode, body: answer.body }).toEqual({ status: 201, body: 'action of acme' });
  });

  it('lets anyone reach a @PortalPublic() handler', async () => {
    const answer = await get('/portal/open');
    expect({ status: answer.statusCode, body: answer.body }).toEqual({ status: 200, body: 'open' });
  });
});
