/**
 * Reporting a custom-trigger event (corpus/svc-platform/custom-triggers/report-events.md). The platform answers
 * 200 when the trigger is valid and its workflow has *started*; the workflow,
 * and any store credit it issues, runs later in the background.
 */
import { PlatformError } from './errors.js';
import { postJson, quoteBody, requireNonEmpty, serviceUrl, type FetchLike } from './http.js';
import { validateTriggerPayload, type JsonObject, type JsonSchema } from './trigger-schema.js';

export const TRIGGER_REPORT_PATH = '/workflows/v1/events/report';

export interface ReportTriggerEventOptions {
  /** `{base_url}`. */
  baseUrl: string;
  /** Sent as the `svc-account-id` header. */
  accountId: string;
  /** Sent as the `Authorization` header, as is (no "Bearer"). Never logged. */
  apiKey: string;
  /** Key of a custom trigger defined in the dashboard. */
  triggerKey: string;
  payload: JsonObject;
  /** The trigger's schema; when given, the payload is validated locally first. */
  schema?: JsonSchema;
  fetch?: FetchLike;
  /** Default 10 s. */
  timeoutMs?: number;
}

/**
 * The platform accepted the report and started the workflow. This is NOT a
 * confirmation that store credit was issued: that happens asynchronously.
 */
export interface TriggerReportAccepted {
  accepted: true;
  status: number;
}

/**
 * `POST {base_url}/workflows/v1/events/report`. Resolves when the workflow has
 * started (not when credit is issued); throws `invalid_trigger_payload` before
 * sending if `schema` rejects the payload, `http_error` on a non-2xx answer.
 *
 * Never retried automatically: a report that timed out may still have started
 * the workflow, and a blind retry could issue credit twice.
 */
export async function reportTriggerEvent(options: ReportTriggerEventOptions): Promise<TriggerReportAccepted> {
  const url = serviceUrl(options.baseUrl, TRIGGER_REPORT_PATH);
  const accountId = requireNonEmpty(options.accountId, 'accountId');
  const apiKey = requireNonEmpty(options.apiKey, 'apiKey');
  const triggerKey = requireNonEmpty(options.triggerKey, 'triggerKey');
  const { payload } = options;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new PlatformError('invalid_trigger_payload', 'payload must be a JSON object matching the trigger schema');
  }
  if (options.schema !== undefined) {
    const violations = validateTriggerPayload(options.schema, payload);
    if (violations.length > 0) {
      throw new PlatformError(
        'invalid_trigger_payload',
        `payload for trigger ${JSON.stringify(triggerKey)} does not match its schema, nothing was sent: ${violations.map((v) => v.message).join('; ')}`,
      );
    }
  }

  let response;
  try {
    response = await postJson({
      fetch: options.fetch,
      url,
      body: { triggerKey, payload },
      headers: { 'svc-account-id': accountId, Authorization: apiKey },
      timeoutMs: options.timeoutMs,
      secrets: [apiKey],
    });
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'timeout') {
      throw new PlatformError(
        'timeout',
        `${error.message}. The report may still have been accepted and its workflow started: check before reporting again`,
      );
    }
    throw error;
  }
  if (response.status < 200 || response.status > 299) {
    const hint =
      response.status === 401 || response.status === 403
        ? ': check accountId and apiKey (the key is sent as the Authorization header without "Bearer")'
        : response.status === 400 || response.status === 404
          ? ': check that the trigger key exists and the payload matches its schema'
          : '';
    throw new PlatformError(
      'http_error',
      `trigger report for ${JSON.stringify(triggerKey)} answered ${response.status} with ${quoteBody(response.text)}${hint}`,
      { status: response.status },
    );
  }
  return { accepted: true, status: response.status };
}
