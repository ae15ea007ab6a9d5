import { Controller, Get, HttpCode, HttpStatus, Inject, Module, Res, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { ServiceStartup } from './startup';

/** A dependency the service cannot serve without (database, broker). */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

const CHECK_TIMEOUT_MS = 2_000;

async function run(check: ReadinessCheck): Promise<{ name: string; status: 'up' | 'down'; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return { name: check.name, status: 'up' };
  } catch (error) {
    return { name: check.name, status: 'down', error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Kubernetes probes: liveness stays cheap, readiness asks every real dependency. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    @Inject(ServiceStartup) private readonly startup: ServiceStartup,
  ) {}

  @Get('live')
  @HttpCode(HttpStatus.OK)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * 200 or 503, with every check either way. The status is set here rather than thrown, so a service whose errors
   * go through the problem+json filter (the api) lists its checks like the others.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: 'ready' | 'not ready'; checks: Awaited<ReturnType<typeof run>>[] }> {
    const checks = await Promise.all([this.startup.check, ...this.checks].map(run));
    if (checks.some((check) => check.status === 'down')) {
      void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
      return { status: 'not ready', checks };
    }
    return { status: 'ready', checks };
  }
}

@Module({})
export class HealthModule {
  /** `checks` is a provider factory so checks can use injected dependencies. */
  static forRoot(checks: Pick<FactoryProvider<ReadinessCheck[]>, 'useFactory' | 'inject'>): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController],
      providers: [ServiceStartup, { provide: READINESS_CHECKS, useFactory: checks.useFactory, inject: checks.inject ?? [] }],
      exports: [ServiceStartup],
    };
  }
}
