export { AddressPolicy, parseSubnetList } from './address-policy';
export { WebhookEndpoint } from './entities/webhook-endpoint.entity';
export { formatIp, parseCidr, parseIp, type Cidr, type IpAddress } from './ip-address';
export { checkPortalToken, issuePortalToken, PORTAL_TOKEN_LIFETIME_MS, type PortalGrant, type PortalTokenCheck } from './portal-token';
export { checkListenToken, issueListenToken, LISTEN_TOKEN_LIFETIME_MS, type ListenGrant } from './listen-token';
export {
  attachListenSession,
  detachListenSession,
  endListenSession,
  openListenSession,
  sweepListenSessions,
  vouchForListenSessions,
  type ListenSession,
} from './listen-sessions';
export { generateSecret, isSecret, signatureEntry, signatureHeader, signedHeaders, signingKey } from './signer';
export { bareHost, checkTargetUrl, checkTargetUrlSyntax, systemResolver, TargetUrlRefused, type HostResolver } from './target-url';
export { DEVELOPMENT_PORTAL_TOKEN_SECRET, MIN_PORTAL_TOKEN_SECRET_LENGTH, portalSecretWarnings, portalTokenSecret } from './portal-secret';
export { SecretKeyring, StoredSecretUnreadable, type SecretKey } from './secret-keyring';
export { GENERATED_SECRET_KEY_FILE, openSecretKeyring, parseSecretKeys, secretKeysSetting, type SecretKeysSetting } from './secret-keys-setting';
export { webhookSecrets, webhookSettingsVariables, type WebhookSecrets } from './settings';
export {
  changeSubscription,
  DEFAULT_DELIVERY_SETTINGS,
  insertSubscription,
  listSubscriptions,
  lockVendorSubscription,
  removeSubscription,
  setSubscribedEventTypes,
  VENDOR_CONSTRAINT,
  type DeliverySettings,
  type NewSubscription,
  type Subscription,
  type SubscriptionChanges,
  type SubscriptionEndpoint,
} from './subscriptions';
export { filterUuids, SUBSCRIPTION_LIMITS, subscribedEventTypes } from './subscription-rules';
export {
  disableEndpoint,
  disableEndpoints,
  enableEndpoint,
  endFailureRuns,
  endingFailureRuns,
  rotateEndpointSecret,
  startFailureRuns,
  storeResealedSecrets,
  type Disabling,
  type ResealedSecrets,
} from './endpoint-state';
