import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { HealthModule, ProblemDetailsFilter, ServiceStartup } from '../src';

/** A service's health routes as the api serves them: behind the problem+json filter. */
async function serviceWith(database: () => Promise<void>): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    HealthModule.forRoot({
      useFactory: () => [
        { name: 'database', check: database },
        { name: 'broker', check: async () => undefined },
      ],
    }),
    new FastifyAdapter(),
    { logger: false },
  );
  app.useGlobalFilters(new ProblemDetailsFilter());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe('readiness', () => {
  it('lists every check, down ones with their error, in a 503 when one is down', async () => {
    const app = await serviceWith(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    try {
      const reply = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/health/ready' });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toEqual({
        status: 'not ready',
        checks: [
          { name: 'startup', status: 'up' },
          { name: 'database', status: 'down', error: 'connect ECONNREFUSED 127.0.0.1:5432' },
          { name: 'broker', status: 'up' },
        ],
      });
    } finally {
      await app.close();
    }
  });

  it('answers 200 with the checks when every one is up', async () => {
    const app = await serviceWith(async () => undefined);
    try {
      const reply = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/health/ready' });
      expect([reply.statusCode, reply.json()]).toEqual([
        200,
        {
          status: 'ready',
          checks: [
            { name: 'startup', status: 'up' },
            { name: 'database', status: 'up' },
            { name: 'broker', status: 'up' },
          ],
        },
      ]);
    } finally {
      await app.close();
    }
  });

  it('is not ready while the event transports are starting, with the reason, and ready once they run', async () => {
    const app = await serviceWith(async () => undefined);
    try {
      const startup = app.get(ServiceStartup);
      const ready = () => app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/health/ready' });
      startup.starting();
      const waiting = await ready();
      expect([waiting.statusCode, waiting.json().checks[0]]).toEqual([
        503,
        { name: 'startup', status: 'down', error: 'event transports starting (waiting for the broker)' },
      ]);
      startup.started();
      expect((await ready()).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
