import {
  applyDecorators,
  createParamDecorator,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '../model/api-key.entity';
import { RateLimits } from '../rate-limit';
import { ApiKeyService, type ApiKeyPrincipal, type PortfolioRef } from './api-key.service';

export const API_KEY_HEADER = 'x-api-key';
/** The OpenAPI security scheme of the API key (src/openapi/security.ts declares it). */
export const API_KEY_SCHEME = 'apiKey';
const SCOPE_KEY = 'storage:api-key-scope';
/** The OpenAPI operation field naming the scope an operation needs (`read`, `write` or `admin`). */
export const API_KEY_SCOPE_EXTENSION = 'x-api-key-scope';

interface AuthenticatedRequest extends FastifyRequest {
  apiKey?: ApiKeyPrincipal;
  portfolio?: PortfolioRef;
}

/**
 * Authenticates `x-api-key` (401 when missing or unknown), checks the scope (403 when a read key calls a
 * write), and when the route has a `:portfolio` segment resolves it, answering 404 for a portfolio the key
 * may not reach exactly as for one that does not exist; 429 past the key's rate limit (`src/rate-limit`). Runs before
 * pipes, so a refused call changes nothing.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(ApiKeyService) private readonly apiKeys: ApiKeyService,
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(RateLimits) private readonly rateLimits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.headers[API_KEY_HEADER];
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
      throw new UnauthorizedException(`A valid ${API_KEY_HEADER} header is required.`);
    }
    const principal = await this.apiKeys.authenticate(key);
    if (principal === null) throw new UnauthorizedException(`A valid ${API_KEY_HEADER} header is required.`);
    request.apiKey = principal;
    await this.rateLimits.forKey(principal.apiKeyUuid, context);

    const params = request.params as Record<string, string | undefined>;
    if (params.portfolio !== undefined) {
      const portfolio = await this.apiKeys.reachablePortfolio(principal, params.portfolio);
      if (portfolio === null) throw new NotFoundException(`Portfolio ${params.portfolio} not found.`);
      request.portfolio = portfolio;
    }

    const required = requiredScope(this.reflector, context, request.method);
    if (required === 'admin' && principal.scope !== 'admin') throw new ForbiddenException('This operation needs an admin API key.');
    if (required === 'write' && principal.scope === 'read') throw new ForbiddenException('This API key may only read.');
    return true;
  }
}

function requiredScope(reflector: Reflector, context: ExecutionContext, method: string): ApiKeyScope {
  const declared = reflector.getAllAndOverride<ApiKeyScope | undefined>(SCOPE_KEY, [context.getHandler(), context.getClass()]);
  return declared ?? defaultScope(method);
}

/** The scope of a route that declares none: GET and HEAD read, every other method writes. */
export function defaultScope(method: string): ApiKeyScope {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}

/**
 * Protects a controller (or one handler) with API keys and documents it as the operations' security requirement;
 * the OpenAPI document adds the 401 and 403 answers (src/openapi/problem-responses.ts). GET needs the read scope,
 * other methods the write scope unless `@ReadOperation()` says otherwise.
 */
export const ApiKeyAuth = (): ClassDecorator & MethodDecorator => applyDecorators(UseGuards(ApiKeyGuard), ApiSecurity(API_KEY_SCHEME));

/** A POST that only reads (look-ups by UUIDs, promotion pricing): a read key may call it. */
export const ReadOperation = (): MethodDecorator =>
  applyDecorators(SetMetadata(SCOPE_KEY, 'read' satisfies ApiKeyScope), ApiExtension(API_KEY_SCOPE_EXTENSION, 'read' satisfies ApiKeyScope));

/**
 * A GET that hands out management rights (operation 20's portal link: secrets revealed and rotated, endpoints
 * enabled, messages resent): only a write key may call it.
 */
export const WriteOperation = (): MethodDecorator =>
  applyDecorators(SetMetadata(SCOPE_KEY, 'write' satisfies ApiKeyScope), ApiExtension(API_KEY_SCOPE_EXTENSION, 'write' satisfies ApiKeyScope));

/** Creating and renaming portfolios: only an admin key (`api-keys create --admin`) may. */
export const AdminOperation = (): MethodDecorator =>
  applyDecorators(SetMetadata(SCOPE_KEY, 'admin' satisfies ApiKeyScope), ApiExtension(API_KEY_SCOPE_EXTENSION, 'admin' satisfies ApiKeyScope));

/** The portfolio of the `:portfolio` segment, resolved and reachable. */
export const CurrentPortfolio = createParamDecorator((_: unknown, context: ExecutionContext): PortfolioRef => {
  const portfolio = context.switchToHttp().getRequest<AuthenticatedRequest>().portfolio;
  if (portfolio === undefined) throw new Error('CurrentPortfolio needs ApiKeyAuth on a route with a :portfolio segment');
  return portfolio;
});

/** The authenticated API key. */
export const CurrentApiKey = createParamDecorator((_: unknown, context: ExecutionContext): ApiKeyPrincipal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey;
  if (principal === undefined) throw new Error('CurrentApiKey needs ApiKeyAuth');
  return principal;
});
