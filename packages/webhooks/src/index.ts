export { AddressPolicy, parseSubnetList } from './address-policy';
export { WebhookEndpoint } from './entities/webhook-endpoint.entity';
export { formatIp, parseCidr, parseIp, type Cidr, type IpAddress } from './ip-address';
export { checkPortalToken, issuePortalToken, PORTAL_TOKEN_LIFETIME_MS, type PortalGrant, type PortalTokenCheck } from './portal-token';
export { generateSecret, isSecret, signatureEntry, signatureHeader, signedHeaders, signingKey } from './signer';
export { bareHost, checkTargetUrl, checkTargetUrlSyntax, systemResolver, TargetUrlRefused, type HostResolver } from './target-url';
export { DEVELOPMENT_PORTAL_TOKEN_SECRET, MIN_PORTAL_TOKEN_SECRET_LENGTH, portalTokenSecret } from './portal-secret';
export { webhookSettingsVariables } from './settings';
