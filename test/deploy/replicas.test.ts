import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../reliability/helpers.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import {
  connectClient,
  messagesOf,
  modernRequest,
  openRawSession,
  raw,
  sessionHeaders,
  type Connected,
} from '../helpers/mcp-client.js';
import { type Call, legacyWorker, type LoadState, modernWorker, type Worker } from './load.js';
import { findNginx, type RunningNginx, startNginx } from './nginx.js';
import { type LogEntry, type ReplicaProcess, startReplica } from './replica-process.js';

/**
 * Two replicas (real `svc-docs serve` processes) behind Debian's nginx running
 * deploy/nginx's configuration. Under load from the real SDK clients of both eras, one replica is
 * killed: 2026-07-28 requests go on succeeding (only those in flight may fail), sessions on the
 * live replica go on, and sessions on the dead one get 404, re-initialize and succeed.
 *
 * nginx comes from scripts/ensure-nginx.sh (CI runs it first). Without nginx the test is skipped
 * on a developer's machine, and fails under CI=true.
 */

const nginxBinary = findNginx();
const requireNginx = process.env.CI === 'true';
const skip = nginxBinary === undefined && !requireNginx;
const MODERN_CLIENTS = 4;
const LEGACY_CLIENTS = 6;
const MAX_BODY_BYTES = 256 * 1024;
/** Successful calls each client makes after the kill before it stops. */
const MODERN_AFTER_KILL = 10;
const LEGACY_AFTER_KILL = 5;

/** Modern-era requests a replica answered: POSTs naming no session (initialize is logged with its new one). */
function modernServed(log: LogEntry[]): number {
  return log.filter((e) => e.method === 'POST' && e.path === '/docs' && e.session === undefined && e.status === 200)
    .length;
}

function okCount(calls: Call[], afterKill: boolean): number {
  return calls.filter((c) => c.ok && c.afterKill === afterKill).length;
}

describe.skipIf(skip)(
  skip
    ? 'replicas behind nginx: SKIPPED, nginx is not installed (scripts/ensure-nginx.sh installs it)'
    : 'replicas behind nginx',
  () => {
    let r1: ReplicaProcess | undefined;
    let r2: ReplicaProcess | undefined;
    let nginx: RunningNginx | undefined;

    beforeAll(async () => {
      if (nginxBinary === undefined)
        throw new Error(
          'nginx is not installed and CI=true: scripts/ensure-nginx.sh installs it (.ci/run calls it before the tests)',
        );
      [r1, r2] = await Promise.all([startReplica('r1', bundledIndex()), startReplica('r2', bundledIndex())]);
      nginx = await startNginx(nginxBinary, [r1, r2], MAX_BODY_BYTES);
    });
    afterAll(async () => {
      await nginx?.stop();
      await Promise.all([r1?.stop(), r2?.stop()]);
    });

    it('limits bodies as the replicas do: over SVC_DOCS_MAX_BODY_BYTES nginx says 413, under it a replica answers', async () => {
      const padded = (bytes: number) => {
        const request = modernRequest('tools/list');
        const body = JSON.parse(request.body!) as { params: Record<string, unknown> };
        const base = JSON.stringify(body).length + ',"padding":""'.length;
        body.params.padding = 'x'.repeat(bytes - base);
        return { ...request, body: JSON.stringify(body) };
      };
      const over = padded(MAX_BODY_BYTES + 1);
      expect(Buffer.byteLength(over.body)).toBe(MAX_BODY_BYTES + 1);
      expect((await raw(nginx!.url, over)).status).toBe(413);

      const under = padded(MAX_BODY_BYTES - 1024);
      const answer = await raw(nginx!.url, under);
      expect(answer.status).not.toBe(413);
      // A JSON-RPC answer: the request went through nginx (body spooled to its temp folder) to a replica.
      expect(messagesOf(answer.text)[0]).toMatchObject({ jsonrpc: '2.0' });
    });

    it('passes a session GET stream through as SSE to the replica holding the session, and DELETE ends it there', async () => {
      const id = await openRawSession(nginx!.url);
      const stream = await raw(nginx!.url, {
        method: 'GET',
        headers: { ...sessionHeaders(id), accept: 'text/event-stream' },
        headersOnly: true,
      });
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect((await raw(nginx!.url, { method: 'DELETE', headers: sessionHeaders(id) })).status).toBe(200);
      expect((await raw(nginx!.url, { method: 'DELETE', headers: sessionHeaders(id) })).status).toBe(404);
    });

    it('survives a replica killed under load: modern requests keep succeeding, sessions on it get 404 and re-initialize', {
      timeout: 300_000,
    }, async () => {
      // Sessions opened one after another through nginx: initialize is round-robin, so both replicas hold some.
      const opened: Connected[] = [];
      for (let i = 0; i < LEGACY_CLIENTS; i++) opened.push(await connectClient(nginx!.url));
      const firstIds = opened.map((c) => c.transport.sessionId ?? '');
      expect(firstIds.some((id) => id.startsWith('r1.'))).toBe(true);
      expect(firstIds.some((id) => id.startsWith('r2.'))).toBe(true);

      const state: LoadState = { killed: false, stop: false };
      const modern: Worker[] = Array.from({ length: MODERN_CLIENTS }, () =>
        modernWorker(nginx!.url, state, MODERN_AFTER_KILL),
      );
      const legacy: Worker[] = opened.map((c) => legacyWorker(nginx!.url, state, LEGACY_AFTER_KILL, c));
      const all = [...modern, ...legacy];
      const finished = Promise.allSettled(all.map((w) => w.done));
      try {
        await waitFor(
          'load on both replicas before the kill',
          () =>
            all.every((w) => okCount(w.calls, false) >= 3) &&
            modernServed(r1!.log()) >= 3 &&
            modernServed(r2!.log()) >= 3,
          120_000,
        );
        await r1!.kill();
        state.killed = true;
      } catch (error) {
        state.stop = true;
        await finished;
        throw error;
      }
      // Each client now runs until its quota after the kill. A call in flight on r1 whose SSE
      // response was cut off fails at its own time limit (CALL_TIMEOUT_MS).
      const outcomes = await finished;
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);

      // Modern era: nothing fails before the kill; afterwards only calls in flight when it died may.
      for (const worker of modern) {
        const failed = worker.calls.filter((c) => !c.ok);
        expect(
          failed.filter((c) => c.afterKill),
          JSON.stringify(failed),
        ).toEqual([]);
        expect(failed.length, JSON.stringify(failed)).toBeLessThanOrEqual(1);
        expect(okCount(worker.calls, true)).toBe(MODERN_AFTER_KILL);
      }

      for (const worker of legacy) {
        const [firstId] = worker.sessions;
        const failed = worker.calls.filter((c) => !c.ok);
        if (firstId!.startsWith('r2.')) {
          // Its replica lived: one session throughout, every call answered.
          expect(worker.sessions).toEqual([firstId]);
          expect(failed, JSON.stringify(failed)).toEqual([]);
          continue;
        }
        // Its replica died: 404 (another replica answered for the dead one), a new session, success.
        expect(
          failed.some((c) => c.status === 404 && c.session === firstId),
          JSON.stringify(failed),
        ).toBe(true);
        for (const call of failed) {
          expect(call.session, JSON.stringify(call)).toMatch(/^r1\./);
          if (call.afterKill) expect(call.status, JSON.stringify(call)).toBe(404);
        }
        expect(failed.filter((c) => c.status !== 404).length, JSON.stringify(failed)).toBeLessThanOrEqual(1);
        const last = worker.sessions.at(-1)!;
        expect(last).toMatch(/^r2\./);
        expect(worker.calls.filter((c) => c.ok && c.session === last).length).toBeGreaterThanOrEqual(LEGACY_AFTER_KILL);
        expect(worker.calls.filter((c) => c.afterKill && c.session === last).every((c) => c.ok)).toBe(true);
      }

      // Routing, from the replicas' own logs: r1 only ever saw its own sessions; r2 saw r1's only
      // after r1 died, as nginx's backup, and answered them 404.
      const sessionLines = (log: LogEntry[], prefix: string) => log.filter((e) => e.session?.startsWith(prefix));
      expect(sessionLines(r1!.log(), 'r2.')).toEqual([]);
      const r1OnR2 = sessionLines(r2!.log(), 'r1.');
      expect(r1OnR2.length).toBeGreaterThan(0);
      expect(r1OnR2.filter((e) => e.status !== 404)).toEqual([]);
    });
  },
);
