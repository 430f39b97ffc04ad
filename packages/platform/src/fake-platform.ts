/**
 * A local stand-in for the platform that speaks the documented contract over
 * real HTTP on 127.0.0.1: installer redirect, token endpoint, wallets query,
 * trigger report and signed webhook deliveries. For tests — this module's and
 * apps' own — with switches for the faults a real platform can have.
 */
import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import { z } from 'zod';
import {
  createFakeWebhookSender,
  sampleGiftCard,
  type FakeWebhookAlgorithm,
  type FakeWebhookEvent,
  type FakeWebhookResult,
} from './fake-webhook-sender.js';
import { INSTALL_PATH } from './install.js';
import { WALLETS_QUERY_PATH } from './api.js';
import { TOKEN_PATH } from './token-manager.js';
import { TRIGGER_REPORT_PATH } from './triggers.js';
import { validateTriggerPayload, type JsonSchema } from './trigger-schema.js';

export interface FakePlatformOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** The app id (`client_id`). Default `fake-app`. */
  appId?: string;
  /** The app secret. Default: random. */
  clientSecret?: string;
  accountId?: string;
  /** Default: random. */
  apiKey?: string;
  /** Token lifetime. Default 4 h, as documented. */
  tokenTtlSec?: number;
  /** Add `expires_in` to token responses; the documented response has only `access_token`. Default false. */
  sendExpiresIn?: boolean;
  /** Known trigger keys and their schemas. When given, other keys get 404 and payloads are validated. */
  triggers?: Record<string, JsonSchema>;
  /** Default RS256. */
  webhookAlgorithm?: FakeWebhookAlgorithm;
}

export interface FakePlatform {
  /** Use as both `baseUrl` and `installUrl`. */
  url: string;
  appId: string;
  clientSecret: string;
  accountId: string;
  apiKey: string;
  /** Pass `{ key: publicKeyPem, algorithms: [webhookAlgorithm] }` to verifyWebhook / createWebhookHandler. */
  webhookAlgorithm: FakeWebhookAlgorithm;
  publicKeyPem: string;
  publicKey: KeyObject;
  publicJwk: JWK;
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
  /** A signed delivery without sending it. */
  signWebhook(event: FakeWebhookEvent): Promise<{ jwt: string; eventId: string }>;
  /** Signs arbitrary claims with the platform key, for malformed-delivery tests. */
  signClaims(claims: Record<string, unknown>, options?: { issuedAt?: number; expiresInSec?: number }): Promise<string>;
  /** Posts a JWT as a delivery body. */
  postWebhook(callbackUrl: string, jwt: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const TokenRequest = z.object({
  grant_type: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  instance_id: z.string().min(1),
});

const TriggerReport = z.object({
  triggerKey: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});

const JsonObjectBody = z.record(z.string(), z.unknown());

export async function startFakePlatform(options: FakePlatformOptions = {}): Promise<FakePlatform> {
  const appId = options.appId ?? 'fake-app';
  const clientSecret = options.clientSecret ?? `secret-${randomBytes(12).toString('hex')}`;
  const accountId = options.accountId ?? 'fake-account';
  const apiKey = options.apiKey ?? `key-${randomBytes(12).toString('hex')}`;
  const tokenTtlMs = (options.tokenTtlSec ?? 4 * 60 * 60) * 1000;
  const sender = await createFakeWebhookSender(appId, options.webhookAlgorithm ?? 'RS256');

  const installations = new Set<string>();
  const tokens = new Map<string, { instanceId: string; expiresAt: number }>();
  const tokenRequests: Array<{ instanceId: string }> = [];
  const walletQueries: Array<{ instanceId: string; query: Record<string, unknown> }> = [];
  const triggerReports: Array<{ accountId: string; triggerKey: string; payload: Record<string, unknown> }> = [];
  const timers = new Set<NodeJS.Timeout>();
  let failuresLeft = 0;
  let failureStatus = 503;
  let tokenDelayMs = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const parsed = TokenRequest.safeParse(body);
    tokenRequests.push({ instanceId: parsed.success ? parsed.data.instance_id : '' });
    if (tokenDelayMs > 0) await wait(tokenDelayMs);
    if (failuresLeft > 0) {
      failuresLeft--;
      return send(res, failureStatus, { error: 'temporarily_unavailable' });
    }
    if (!isJson(req)) return send(res, 415, { error: 'Content-Type must be application/json' });
    if (!parsed.success)
      return send(res, 400, {
        error: 'invalid_request',
        message: 'grant_type, client_id, client_secret and instance_id are required',
      });
    const request = parsed.data;
    if (request.grant_type !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
    if (request.client_id !== appId || request.client_secret !== clientSecret)
      return send(res, 401, { error: 'invalid_client' });
    if (!installations.has(request.instance_id))
      return send(res, 400, { error: 'invalid_instance', message: 'the app is not installed on this instance' });
    const accessToken = `tok-${randomBytes(16).toString('hex')}`;
    tokens.set(accessToken, { instanceId: request.instance_id, expiresAt: Date.now() + tokenTtlMs });
    const response: Record<string, unknown> = { access_token: accessToken };
    if (options.sendExpiresIn === true) response.expires_in = Math.floor(tokenTtlMs / 1000);
    return send(res, 200, response);
  }

  async function wallets(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const issued = bearer === undefined ? undefined : tokens.get(bearer);
    if (issued === undefined || issued.expiresAt <= Date.now()) {
      return send(res, 401, { error: 'invalid_token', message: 'missing, unknown or expired access token' });
    }
    if (!isJson(req)) return send(res, 415, { error: 'Content-Type must be application/json' });
    const query = JsonObjectBody.safeParse(body);
    if (!query.success) return send(res, 400, { error: 'the body must be a JSON object' });
    walletQueries.push({ instanceId: issued.instanceId, query: query.data });
    return send(res, 200, { wallets: [] });
  }

  async function report(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (req.headers['svc-account-id'] !== accountId)
      return send(res, 401, { error: 'svc-account-id header missing or unknown' });
    if (req.headers.authorization !== apiKey)
      return send(res, 401, { error: 'Authorization must be the account API key itself, without "Bearer"' });
    if (!isJson(req)) return send(res, 415, { error: 'Content-Type must be application/json' });
    const parsed = TriggerReport.safeParse(body);
    if (!parsed.success) return send(res, 400, { error: 'the body must be { triggerKey: string, payload: object }' });
    const { triggerKey, payload } = parsed.data;
    if (options.triggers !== undefined) {
      const schema = options.triggers[triggerKey];
      if (schema === undefined) return send(res, 404, { error: `no custom trigger with key ${triggerKey}` });
      const violations = validateTriggerPayload(schema, payload);
      if (violations.length > 0)
        return send(res, 400, { error: 'payload does not match the trigger schema', violations });
    }
    triggerReports.push({ accountId, triggerKey, payload });
    return send(res, 200, {});
  }

  function install(url: URL, res: ServerResponse): void {
    if (url.searchParams.get('appId') !== appId) return send(res, 400, { error: 'unknown appId' });
    const redirectUri = url.searchParams.get('redirectUri');
    let target: URL;
    try {
      target = new URL(redirectUri ?? '');
    } catch {
      return send(res, 400, { error: 'redirectUri is missing or not a URL' });
    }
    if (target.protocol !== 'https:') return send(res, 400, { error: 'redirectUri must be HTTPS' });
    const instanceId = addInstallation();
    target.searchParams.set('code', `code-${randomBytes(8).toString('hex')}`);
    target.searchParams.set('instanceId', instanceId);
    const state = url.searchParams.get('state');
    if (state !== null) target.searchParams.set('state', state);
    res.writeHead(302, { Location: target.href });
    res.end();
  }

  function addInstallation(instanceId: string = randomUUID()): string {
    installations.add(instanceId);
    return instanceId;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const route = `${req.method ?? ''} ${url.pathname}`;
    const handled = (async () => {
      switch (route) {
        case `GET ${INSTALL_PATH}`:
          return install(url, res);
        case `POST ${TOKEN_PATH}`:
          return token(req, res);
        case `POST ${WALLETS_QUERY_PATH}`:
          return wallets(req, res);
        case `POST ${TRIGGER_REPORT_PATH}`:
          return report(req, res);
        default:
          return send(res, 404, { error: `no route ${route}` });
      }
    })();
    handled.catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'fake platform failure' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const sendWebhook = async (callbackUrl: string, event: FakeWebhookEvent): Promise<FakeWebhookResult> => {
    const { jwt, eventId } = await sender.signWebhook(event);
    return { ...(await sender.post(callbackUrl, jwt)), eventId, jwt };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    appId,
    clientSecret,
    accountId,
    apiKey,
    webhookAlgorithm: sender.algorithm,
    publicKeyPem: sender.publicKeyPem,
    publicKey: sender.publicKey,
    publicJwk: sender.publicJwk,
    installations,
    tokenRequests,
    walletQueries,
    triggerReports,
    addInstallation,
    failTokenRequests(count, status = 503) {
      failuresLeft = count;
      failureStatus = status;
    },
    setTokenDelay(ms) {
      tokenDelayMs = ms;
    },
    expireTokens() {
      for (const issued of tokens.values()) issued.expiresAt = 0;
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
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isJson(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
