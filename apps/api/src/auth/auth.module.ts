import { Global, Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyService } from './api-key.service';

/** Global so every controller (the webhook routes included) can use `@ApiKeyAuth()`. */
@Global()
@Module({ providers: [ApiKeyService, ApiKeyGuard], exports: [ApiKeyService, ApiKeyGuard] })
export class AuthModule {}
