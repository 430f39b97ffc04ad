/**
 * A local stand-in for the platform that speaks the documented contract over
 * real HTTP on 127.0.0.1: installer redirect, token endpoint, wallets query,
 * trigger report and signed webhook deliveries. For tests — this module's and
 * apps' own — with switches for the faults a real platform can have.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createFakeWebhookSender,
  sampleGiftCard,
  type FakeWebhookAlgorithm,
  type FakeWebhookEvent,
  type FakeWebhookResult,
  type FakeWebhookSender,
} from './fake-webhook-sender.js';
import {
  addInstallation,
  type FakePlatformOptions,
  type FakePlatformState,
  routeRequest,
} from './fake-platform-routes.js';

export interface FakePlatform
  extends Pick<FakeWebhookSender, 'publicKeyPem' | 'publicKey' | 'publicJwk' | 'signWebhook' | 'signClaims'> {
  /** Use as both `baseUrl` and `installUrl`. */
  url: string;
  appId: string;
  clientSecret: string;
  accountId: string;
  apiKey: string;
  /** Pass `{ key: publicKeyPem, algorithms: [webhookAlgorithm] }` to verifyWebhook / createWebhookHandler. */
  webhookAlgorithm: FakeWebhookAlgorithm;
  /** Instance ids of installations (via the install redirect or `addInstallation`). */
  readonly installations: ReadonlySet<string>;
  /** Every token request received, faulty ones included. */
  readonly tokenRequests: ReadonlyArray<{ instanceId: string }>;
  readonly walletQueries: ReadonlyArray<{ instanceId: string; query: Record<string, unknown> }>;
  readonly triggerReports: ReadonlyArray<{ accountId: string; triggerKey: string; payload: Record<string, unknown> }>;
  /** Registers an installation without the browser redirect; returns its instance id. */
  addInstallation(instanceId?: string): string;
  /** The next `count` token requests answer `status` (default 503). */
  failTokenRequests(count: number, status?: number): void;
  /** Token requests wait this long before answering (0 turns it off). */
  setTokenDelay(ms: number): void;
  /** Every token issued so far is rejected with 401 from now on. */
  expireTokens(): void;
  sendWebhook(callbackUrl: string, event: FakeWebhookEvent): Promise<FakeWebhookResult>;
  /** Like the dashboard's "Test webhook" button: a delivery with sample entity data. */
  sendTestWebhook(callbackUrl: string, event: { instanceId: string; eventType?: string }): Promise<FakeWebhookResult>;
  /** Posts a JWT as a delivery body. */
  postWebhook(callbackUrl: string, jwt: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export async function startFakePlatform(options: FakePlatformOptions = {}): Promise<FakePlatform> {
  const state = newState(options);
  const sender = await createFakeWebhookSender(state.appId, options.webhookAlgorithm ?? 'RS256');
  const server = createServer((req, res) => routeRequest(state, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return platformFace(state, sender, server, port);
}

function newState(options: FakePlatformOptions): FakePlatformState {
  return {
    options,
    appId: options.appId ?? 'fake-app',
    clientSecret: options.clientSecret ?? `secret-${randomBytes(12).toString('hex')}`,
    accountId: options.accountId ?? 'fake-account',
    apiKey: options.apiKey ?? `key-${randomBytes(12).toString('hex')}`,
    tokenTtlMs: (options.tokenTtlSec ?? 4 * 60 * 60) * 1000,
    installations: new Set<string>(),
    tokens: new Map(),
    tokenRequests: [],
    walletQueries: [],
    triggerReports: [],
    timers: new Set<NodeJS.Timeout>(),
    failuresLeft: 0,
    failureStatus: 503,
    tokenDelayMs: 0,
  };
}

/** What a test holds: the platform's identity, what it received, the fault switches, the webhook sender. */
function platformFace(state: FakePlatformState, sender: FakeWebhookSender, server: Server, port: number): FakePlatform {
  const sendWebhook = async (callbackUrl: string, event: FakeWebhookEvent): Promise<FakeWebhookResult> => {
    const { jwt, eventId } = await sender.signWebhook(event);
    return { ...(await sender.post(callbackUrl, jwt)), eventId, jwt };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    appId: state.appId,
    clientSecret: state.clientSecret,
    accountId: state.accountId,
    apiKey: state.apiKey,
    webhookAlgorithm: sender.algorithm,
    publicKeyPem: sender.publicKeyPem,
    publicKey: sender.publicKey,
    publicJwk: sender.publicJwk,
    installations: state.installations,
    tokenRequests: state.tokenRequests,
    walletQueries: state.walletQueries,
    triggerReports: state.triggerReports,
    addInstallation: (instanceId?: string) => addInstallation(state, instanceId),
    failTokenRequests(count, status = 503) {
      state.failuresLeft = count;
      state.failureStatus = status;
    },
    setTokenDelay(ms) {
      state.tokenDelayMs = ms;
    },
    expireTokens() {
      for (const issued of state.tokens.values()) issued.expiresAt = 0;
    },
    sendWebhook,
    sendTestWebhook(callbackUrl, event) {
      const entityId = randomUUID();
      return sendWebhook(callbackUrl, { ...event, entityId, entity: sampleGiftCard(entityId) });
    },
    signWebhook: sender.signWebhook,
    signClaims: sender.signClaims,
    postWebhook: sender.post,
    close() {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
