// What other modules of the api (the webhook routes among them) use to protect their routes.
export {
  AdminOperation,
  ApiKeyAuth,
  ApiKeyGuard,
  API_KEY_HEADER,
  API_KEY_SCHEME,
  API_KEY_SCOPE_EXTENSION,
  CurrentApiKey,
  CurrentPortfolio,
  defaultScope,
  ReadOperation,
  WriteOperation,
} from './api-key.guard';
export { ApiKeyService, canReach, type ApiKeyPrincipal, type PortfolioRef } from './api-key.service';
export { AuthModule } from './auth.module';
