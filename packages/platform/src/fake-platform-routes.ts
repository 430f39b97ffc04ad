/** The fake platform's HTTP routes (install redirect, token, wallets query, trigger report) over its mutable state. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { WALLETS_QUERY_PATH } from './api.js';
import { parseJsonOrUndefined } from './http.js';
import { INSTALL_PATH } from './install.js';
import { TOKEN_PATH } from './token-manager.js';
import type { FakeWebhookAlgorithm } from './fake-webhook-sender.js';
import { type JsonSchema, validateTriggerPayload } from './trigger-schema.js';
import { TRIGGER_REPORT_PATH } from './triggers.js';

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

/** What the routes read and record; the test-facing switches write the fault fields. */
export interface FakePlatformState {
  options: FakePlatformOptions;
  appId: string;
  clientSecret: string;
  accountId: string;
  apiKey: string;
  tokenTtlMs: number;
  installations: Set<string>;
  tokens: Map<string, { instanceId: string; expiresAt: number }>;
  tokenRequests: Array<{ instanceId: string }>;
  walletQueries: Array<{ instanceId: string; query: Record<string, unknown> }>;
  triggerReports: Array<{ accountId: string; triggerKey: string; payload: Record<string, unknown> }>;
  /** Pending delays, cleared on close. */
  timers: Set<NodeJS.Timeout>;
  failuresLeft: number;
  failureStatus: number;
  tokenDelayMs: number;
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

/** Answers one request by its method and path; a handler that throws gets a 500. */
export function routeRequest(state: FakePlatformState, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const route = `${req.method ?? ''} ${url.pathname}`;
  const handled = (async () => {
    switch (route) {
      case `GET ${INSTALL_PATH}`:
        return install(state, url, res);
      case `POST ${TOKEN_PATH}`:
        return token(state, req, res);
      case `POST ${WALLETS_QUERY_PATH}`:
        return wallets(state, req, res);
      case `POST ${TRIGGER_REPORT_PATH}`:
        return report(state, req, res);
      default:
        return send(res, 404, { error: `no route ${route}` });
    }
  })();
  handled.catch(() => {
    if (!res.headersSent) send(res, 500, { error: 'fake platform failure' });
  });
}

function wait(state: FakePlatformState, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      resolve();
    }, ms);
    state.timers.add(timer);
  });
}

async function token(state: FakePlatformState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const parsed = TokenRequest.safeParse(body);
  state.tokenRequests.push({ instanceId: parsed.success ? parsed.data.instance_id : '' });
  if (state.tokenDelayMs > 0) await wait(state, state.tokenDelayMs);
  if (state.failuresLeft > 0) {
    state.failuresLeft--;
    return send(res, state.failureStatus, { error: 'temporarily_unavailable' });
  }
  if (!isJson(req)) return send(res, 415, { error: 'Content-Type must be application/json' });
  if (!parsed.success)
    return send(res, 400, {
      error: 'invalid_request',
      message: 'grant_type, client_id, client_secret and instance_id are required',
    });
  const request = parsed.data;
  if (request.grant_type !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
  if (request.client_id !== state.appId || request.client_secret !== state.clientSecret)
    return send(res, 401, { error: 'invalid_client' });
  if (!state.installations.has(request.instance_id))
    return send(res, 400, { error: 'invalid_instance', message: 'the app is not installed on this instance' });
  const accessToken = `tok-${randomBytes(16).toString('hex')}`;
  state.tokens.set(accessToken, { instanceId: request.instance_id, expiresAt: Date.now() + state.tokenTtlMs });
  const response: Record<string, unknown> = { access_token: accessToken };
  if (state.options.sendExpiresIn === true) response.expires_in = Math.floor(state.tokenTtlMs / 1000);
  return send(res, 200, response);
}

async function wallets(state: FakePlatformState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const issued = bearer === undefined ? undefined : state.tokens.get(bearer);
  if (issued === undefined || issued.expiresAt <= Date.now()) {
    return send(res, 401, { error: 'invalid_token', message: 'missing, unknown or expired access token' });
  }
  if (!isJson(req)) return send(res, 415, { error: 'Content-Type must be application/json' });
  const query = JsonObjectBody.safeParse(body);
  if (!query.success) return send(res, 400, { error: 'the body must be a JSON object' });
  state.walletQueries.push({ instanceId: issued.instanceId, query: query.data });
  return send(res, 200, { wallets: [] });
}

async function report(state: FakePlatformState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  if (req.headers['svc-account-id'] !== state.accountId)
    return send(res, 401, { error: 'svc-account-id header missing or unknown' });
  if (req.headers.authorization !== state.apiKey)
    return send(res, 401, { error: 'Authorization must be the account API key itself, without "Bearer"' });
  if (!isJson(req)) return send(res, 415, { error: 'Content-Type must be application/json' });
  const parsed = TriggerReport.safeParse(body);
  if (!parsed.success) return send(res, 400, { error: 'the body must be { triggerKey: string, payload: object }' });
  const { triggerKey, payload } = parsed.data;
  if (state.options.triggers !== undefined) {
    const schema = state.options.triggers[triggerKey];
    if (schema === undefined) return send(res, 404, { error: `no custom trigger with key ${triggerKey}` });
    const violations = validateTriggerPayload(schema, payload);
    if (violations.length > 0)
      return send(res, 400, { error: 'payload does not match the trigger schema', violations });
  }
  state.triggerReports.push({ accountId: state.accountId, triggerKey, payload });
  return send(res, 200, {});
}

function install(state: FakePlatformState, url: URL, res: ServerResponse): void {
  if (url.searchParams.get('appId') !== state.appId) return send(res, 400, { error: 'unknown appId' });
  const redirectUri = url.searchParams.get('redirectUri');
  const target = URL.parse(redirectUri ?? '');
  if (target === null) return send(res, 400, { error: 'redirectUri is missing or not a URL' });
  if (target.protocol !== 'https:') return send(res, 400, { error: 'redirectUri must be HTTPS' });
  const instanceId = addInstallation(state);
  target.searchParams.set('code', `code-${randomBytes(8).toString('hex')}`);
  target.searchParams.set('instanceId', instanceId);
  const oauthState = url.searchParams.get('state');
  if (oauthState !== null) target.searchParams.set('state', oauthState);
  res.writeHead(302, { Location: target.href });
  res.end();
}

export function addInstallation(state: FakePlatformState, instanceId: string = randomUUID()): string {
  state.installations.add(instanceId);
  return instanceId;
}

function isJson(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return parseJsonOrUndefined(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
