import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src/serve/http-server.js';
import { ServerOptionsError } from '../../src/settings/server-options.js';
import { serverOptionsFromEnv } from '../helpers/server-settings.js';
import { newSessionId } from '../../src/mcp/http/sessions.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import { connectClient } from '../helpers/mcp-client.js';

/**
 * SVC_DOCS_REPLICA_ID: the prefix that lets nginx send a 2025-era session's requests back to the
 * replica that minted its id (deploy/nginx/svc-docs.conf). The whole path through nginx is
 * replicas.test.ts; this file pins the setting and the id format that nginx's map relies on.
 */

describe('replica id setting', () => {
  it('is read from SVC_DOCS_REPLICA_ID and absent by default', () => {
    expect(serverOptionsFromEnv({ SVC_DOCS_REPLICA_ID: ' r1 ' }).replicaId).toBe('r1');
    expect(serverOptionsFromEnv({}).replicaId).toBeUndefined();
  });

  it('refuses names that could not start a session id unambiguously', () => {
    for (const bad of ['r.1', 'r 1', 'x'.repeat(33), 'é']) {
      expect(() => serverOptionsFromEnv({ SVC_DOCS_REPLICA_ID: bad })).toThrow(ServerOptionsError);
    }
    expect(() => serverOptionsFromEnv({ SVC_DOCS_REPLICA_ID: 'r.1' })).toThrow(/replicaId \(SVC_DOCS_REPLICA_ID\)/);
  });

  it("starts ids with '<replica>.' and leaves them unprefixed without one", () => {
    expect(newSessionId('r1')).toMatch(/^r1\.[A-Za-z0-9_-]{43}$/);
    expect(newSessionId()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('a server with a replica id', () => {
  let engine: LoadedEngine;
  let server: RunningServer;

  beforeAll(async () => {
    engine = await openEngine(sampleIndex());
    server = await startHttpServer({ port: 0, replicaId: 'r7', engine: () => engine, log: () => undefined });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });

  it('gives the real v1 client a session id that names the replica', async () => {
    const { transport, close } = await connectClient(server.url);
    try {
      expect(transport.sessionId).toMatch(/^r7\.[A-Za-z0-9_-]{43}$/);
    } finally {
      await close();
    }
  });
});
