import type { CallToolResult } from '@modelcontextprotocol/client';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Connected, connectClient, connectV2, MODERN_VERSION } from '../helpers/mcp-client.js';

/**
 * Load through the proxy with the real SDK clients: v2 clients pinned to 2026-07-28 (stateless)
 * and v1 clients in 2025-era sessions, each searching in a loop and recording every call. A
 * legacy client told 404 (its session is gone) opens a new session and goes on, as the MCP spec
 * asks of a client. A loop stops once it has `quota` successful calls started after the kill,
 * when told to, or after MAX_CALLS, whichever comes first.
 */

export const MAX_CALLS = 400;
/**
 * A call's own time limit. A call in flight on a replica that dies has its SSE answer cut off
 * and would wait for the SDK's default of 60 s; the replicas answer in milliseconds, so 10 s
 * still leaves a loaded CI machine room while the test no longer idles a minute.
 */
export const CALL_TIMEOUT_MS = 10_000;

const TERMS = [
  'session idle timeout',
  'webhook signature',
  'index your docs',
  'access token',
  'search tips',
  'connect your IDE',
];

export interface Call {
  ok: boolean;
  /** Started after the killed replica's exit was seen (not in flight when it died). */
  afterKill: boolean;
  /** The session it ran in (legacy clients). */
  session?: string;
  /** HTTP status of a failed call, when the client reports one. */
  status?: number;
  error?: string;
}

export interface LoadState {
  killed: boolean;
  stop: boolean;
}

export interface Worker {
  calls: Call[];
  /** Legacy clients: every session id it had, in order. */
  sessions: string[];
  done: Promise<void>;
}

function searched(result: CallToolResult): boolean {
  const first = result.content[0];
  return result.isError !== true && first?.type === 'text' && first.text.includes('Source:');
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function okAfterKill(calls: Call[]): number {
  return calls.filter((c) => c.ok && c.afterKill).length;
}

export function modernWorker(url: string, state: LoadState, quota: number): Worker {
  const calls: Call[] = [];
  const run = async () => {
    const { client, close } = await connectV2(url, { pin: MODERN_VERSION });
    try {
      for (let i = 0; !state.stop && i < MAX_CALLS && okAfterKill(calls) < quota; i++) {
        const afterKill = state.killed;
        try {
          const result = (await client.callTool(
            { name: 'SearchDocs', arguments: { searchTerm: TERMS[i % TERMS.length]! } },
            { timeout: CALL_TIMEOUT_MS },
          )) as CallToolResult;
          calls.push(
            searched(result)
              ? { ok: true, afterKill }
              : { ok: false, afterKill, error: JSON.stringify(result.content) },
          );
        } catch (error) {
          calls.push({ ok: false, afterKill, error: describeError(error) });
        }
      }
    } finally {
      await close();
    }
  };
  return { calls, sessions: [], done: run() };
}

export function legacyWorker(url: string, state: LoadState, quota: number, first: Connected): Worker {
  const calls: Call[] = [];
  const sessions: string[] = [first.transport.sessionId ?? ''];
  const run = async () => {
    let connected = first;
    try {
      for (let i = 0; !state.stop && i < MAX_CALLS && okAfterKill(calls) < quota; i++) {
        const afterKill = state.killed;
        const session = connected.transport.sessionId;
        try {
          const result = (await connected.client.callTool(
            { name: 'SearchDocs', arguments: { searchTerm: TERMS[i % TERMS.length]! } },
            undefined,
            { timeout: CALL_TIMEOUT_MS },
          )) as CallToolResult;
          calls.push(
            searched(result)
              ? { ok: true, afterKill, session }
              : { ok: false, afterKill, session, error: JSON.stringify(result.content) },
          );
        } catch (error) {
          const status = error instanceof StreamableHTTPError ? error.code : undefined;
          calls.push({ ok: false, afterKill, session, status, error: describeError(error) });
          if (status === 404) {
            // The session is gone: start a new one, as a spec-following client does.
            await connected.close().catch(() => undefined);
            connected = await connectClient(url);
            sessions.push(connected.transport.sessionId ?? '');
          }
        }
      }
    } finally {
      await connected.close().catch(() => undefined);
    }
  };
  return { calls, sessions, done: run() };
}
