/** The target-URL address rules (with the configured allowlist). */
export const ADDRESS_POLICY = Symbol('ADDRESS_POLICY');
/** DNS for target URLs; tests replace it. */
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');
export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');
/** Publishes webhook commands (operation 19) through the api's outbox. */
export const COMMAND_PUBLISHER = Symbol('COMMAND_PUBLISHER');
