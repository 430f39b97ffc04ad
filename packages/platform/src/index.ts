/**
 * `@svc-docs/platform`: the platform's app-side contracts — installation,
 * access tokens, API calls, custom-trigger reports and webhook deliveries —
 * plus a local fake of the platform for tests.
 */
export { PlatformError, WebhookVerificationError } from './errors.js';
export type { PlatformErrorCode, WebhookErrorCode } from './errors.js';
export type { FetchLike } from './http.js';
export { consoleLogger } from './log.js';
export type { PlatformLogEntry, PlatformLogger } from './log.js';

export { buildInstallUrl, parseInstallRedirect } from './install.js';
export type { InstallRedirect, InstallUrlOptions } from './install.js';
export { ASSUMED_TOKEN_VALIDITY_MS, TokenManager } from './token-manager.js';
export type { TokenManagerOptions } from './token-manager.js';
export { callPlatformApi, queryWallets } from './api.js';
export type { PlatformApiCall, QueryWalletsOptions, TokenSource } from './api.js';

export { inferTriggerSchema, validateTriggerPayload } from './trigger-schema.js';
export { lintTriggerSchema } from './trigger-lint.js';
export type { JsonObject, JsonSchema, JsonValue, SchemaViolation } from './trigger-schema.js';
export { reportTriggerEvent } from './triggers.js';
export type { ReportTriggerEventOptions, TriggerReportAccepted } from './triggers.js';

export { decodeWebhookPayload } from './webhook-delivery.js';
export type { WebhookDelivery, WebhookEvent, WebhookIdentity } from './webhook-delivery.js';
export { verifyWebhook } from './webhook-verify.js';
export type { VerifyWebhookOptions, WebhookKey } from './webhook-verify.js';
export { createWebhookHandler } from './webhook-handler.js';
export type { WebhookHandler, WebhookHandlerOptions } from './webhook-handler.js';
export type { WebhookEventContext } from './webhook-processing.js';
export type { PendingDelivery, RecordOutcome, WebhookStore } from './webhook-store.js';
export { openSqliteWebhookStore } from './sqlite-webhook-store.js';
export type { DeliveryStatus, SqliteWebhookStore, StoredDelivery } from './sqlite-webhook-store.js';

export { startFakePlatform } from './fake-platform.js';
export type { FakePlatform } from './fake-platform.js';
export type { FakePlatformOptions } from './fake-platform-routes.js';
export type { FakeWebhookAlgorithm, FakeWebhookEvent, FakeWebhookResult } from './fake-webhook-sender.js';
