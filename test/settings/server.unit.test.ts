import { describe, expect, it } from 'vitest';
import { parseServerOptions } from '../../src/settings/server-options.js';
import { SettingsError } from '../../src/settings/read-value.js';
import { serverOptionsFromEnv } from '../helpers/server-settings.js';
import { SETTINGS } from '../../src/settings/catalogue.js';

/** `serve`'s settings as the HTTP server's options: read from the variables and flags, then checked by the server's schema. */

describe('server options', () => {
  it('defaults to a loopback server on 8080 that only answers localhost names', () => {
    expect(serverOptionsFromEnv({})).toEqual({
      host: '127.0.0.1',
      port: 8080,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      allowedOrigins: ['localhost', '127.0.0.1', '[::1]'],
      sessionIdleMs: 1_800_000,
      writeTimeoutMs: 20_000,
      maxSessions: 1000,
      maxSessionsPerClient: 100,
      maxRequestsPerClient: 8,
      trustedProxies: [],
      maxBodyBytes: 262_144,
      responseBudgetChars: SETTINGS.responseBudgetChars.default,
      pageBudgetChars: 32_000,
      maxResults: 5,
      metrics: true,
      queryStore: true,
      queryStoreMaxBytes: 4 * 1024 * 1024,
      webPage: true,
    });
  });

  it('reads every SVC_DOCS_* variable', () => {
    const options = serverOptionsFromEnv({
      SVC_DOCS_HOST: '0.0.0.0',
      SVC_DOCS_PORT: '9090',
      SVC_DOCS_ALLOWED_HOSTS: 'docs.internal, 10.0.0.5 ,',
      SVC_DOCS_ALLOWED_ORIGINS: 'https://portal.example.com:8443,localhost',
      SVC_DOCS_AUTH_TOKEN: 'a'.repeat(32),
      SVC_DOCS_SESSION_IDLE_SECONDS: '60',
      SVC_DOCS_WRITE_TIMEOUT_SECONDS: '5',
      SVC_DOCS_MAX_SESSIONS: '20',
      SVC_DOCS_MAX_SESSIONS_PER_CLIENT: '4',
      SVC_DOCS_MAX_REQUESTS_PER_CLIENT: '3',
      SVC_DOCS_TRUSTED_PROXIES: '10.0.0.0/8, loopback',
      SVC_DOCS_MAX_BODY_BYTES: '4096',
      SVC_DOCS_RESPONSE_BUDGET_CHARS: '8000',
      SVC_DOCS_PAGE_BUDGET_CHARS: '9000',
      SVC_DOCS_MAX_RESULTS: '3',
      SVC_DOCS_LOG_QUERIES: 'no',
      SVC_DOCS_METRICS: '0',
      SVC_DOCS_METRICS_TOKEN: 'm'.repeat(20),
      SVC_DOCS_QUERY_STORE: 'off',
      SVC_DOCS_QUERY_STORE_MAX_BYTES: '100000',
      SVC_DOCS_WEB_PAGE: 'false',
    });
    expect(options).toEqual({
      host: '0.0.0.0',
      port: 9090,
      allowedHosts: ['docs.internal', '10.0.0.5'],
      allowedOrigins: ['https://portal.example.com:8443', 'localhost'],
      authToken: 'a'.repeat(32),
      sessionIdleMs: 60_000,
      writeTimeoutMs: 5000,
      maxSessions: 20,
      maxSessionsPerClient: 4,
      maxRequestsPerClient: 3,
      trustedProxies: ['10.0.0.0/8', 'loopback'],
      maxBodyBytes: 4096,
      responseBudgetChars: 8000,
      pageBudgetChars: 9000,
      maxResults: 3,
      logQueries: false,
      metrics: false,
      metricsToken: 'm'.repeat(20),
      queryStore: false,
      queryStoreMaxBytes: 100_000,
      webPage: false,
    });
  });

  it('lets flags win over variables, and ignores empty variables and undefined flags', () => {
    const options = serverOptionsFromEnv(
      { SVC_DOCS_PORT: '9090', SVC_DOCS_HOST: '' },
      { port: 0, maxResults: undefined },
    );
    expect(options.port).toBe(0);
    expect(options.host).toBe('127.0.0.1');
    expect(options.maxResults).toBe(5);
  });

  it('names the variable and the problem in one line', () => {
    expect(() => serverOptionsFromEnv({ SVC_DOCS_PORT: 'eighty' })).toThrow(
      new SettingsError('SVC_DOCS_PORT must be a whole number, got "eighty"'),
    );
    expect(() => serverOptionsFromEnv({ SVC_DOCS_PORT: '70000' })).toThrow(/port \(SVC_DOCS_PORT\)/);
    expect(() => serverOptionsFromEnv({ SVC_DOCS_MAX_SESSIONS: '0' })).toThrow(/maxSessions \(SVC_DOCS_MAX_SESSIONS\)/);
    expect(() => serverOptionsFromEnv({ SVC_DOCS_ALLOWED_HOSTS: 'http://docs.internal' })).toThrow(
      /allowedHosts \(SVC_DOCS_ALLOWED_HOSTS\): expected a host name without scheme or port/,
    );
    expect(() => serverOptionsFromEnv({ SVC_DOCS_ALLOWED_ORIGINS: 'https://portal.example.com/app' })).toThrow(
      /is not an origin/,
    );
    expect(() => serverOptionsFromEnv({ SVC_DOCS_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(
      /trustedProxies \(SVC_DOCS_TRUSTED_PROXIES\): expected an IP address, a CIDR block/,
    );
  });

  it('refuses a weak token without repeating it', () => {
    let message = '';
    try {
      serverOptionsFromEnv({ SVC_DOCS_AUTH_TOKEN: 'hunter2' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/authToken \(SVC_DOCS_AUTH_TOKEN\): is too short/);
    expect(message).not.toContain('hunter2');
    expect(() => parseServerOptions({ authToken: 'has a space in it ok?' })).toThrow(/visible ASCII/);
    expect(() => serverOptionsFromEnv({ SVC_DOCS_METRICS_TOKEN: 'hunter2' })).toThrow(
      /^invalid server setting metricsToken \(SVC_DOCS_METRICS_TOKEN\): is too short[^]*$/,
    );
  });

  it('rejects unknown options', () => {
    expect(() => parseServerOptions({ prot: 1 } as never)).toThrow(/invalid server setting/);
  });
});
