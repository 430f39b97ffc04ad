import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PlatformError,
  TokenManager,
  buildInstallUrl,
  parseInstallRedirect,
  queryWallets,
  startFakePlatform,
  type FakePlatform,
} from '../src/index.js';

describe('buildInstallUrl', () => {
  it('builds the installer URL with URL-encoded parameters', () => {
    const url = buildInstallUrl({
      installUrl: 'https://install.example.com/',
      appId: 'app 1',
      redirectUri: 'https://app.example.com/cb?x=1&y=2',
      state: 'a/b c',
    });
    expect(url).toBe(
      'https://install.example.com/protected/app-installer/install?appId=app%201&redirectUri=https%3A%2F%2Fapp.example.com%2Fcb%3Fx%3D1%26y%3D2&state=a%2Fb%20c',
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get('redirectUri')).toBe('https://app.example.com/cb?x=1&y=2');
  });

  it('leaves state out when none is given', () => {
    const url = buildInstallUrl({
      installUrl: 'https://i.example.com',
      appId: 'a',
      redirectUri: 'https://app.example.com/cb',
    });
    expect(new URL(url).searchParams.has('state')).toBe(false);
  });

  it('refuses a redirectUri that is not HTTPS, with a clear error', () => {
    const attempt = () =>
      buildInstallUrl({ installUrl: 'https://i.example.com', appId: 'a', redirectUri: 'http://app.example.com/cb' });
    expect(attempt).toThrow(PlatformError);
    expect(attempt).toThrow(/redirectUri .* must use https/);
  });

  it('refuses a relative redirectUri and an empty appId', () => {
    expect(() => buildInstallUrl({ installUrl: 'https://i.example.com', appId: 'a', redirectUri: '/cb' })).toThrow(
      /not an absolute URL/,
    );
    expect(() =>
      buildInstallUrl({ installUrl: 'https://i.example.com', appId: '', redirectUri: 'https://a.example.com' }),
    ).toThrow(/appId/);
  });
});

describe('parseInstallRedirect', () => {
  it('returns code, instanceId and state', () => {
    expect(
      parseInstallRedirect('https://app.example.com/cb?code=c1&instanceId=i1&state=s1', { expectedState: 's1' }),
    ).toEqual({ code: 'c1', instanceId: 'i1', state: 's1' });
  });

  it('accepts a path with query, as express gives it', () => {
    expect(parseInstallRedirect('/cb?code=c1&instanceId=i1').instanceId).toBe('i1');
  });

  it('rejects a redirect without instanceId', () => {
    const error = (() => {
      try {
        parseInstallRedirect('https://app.example.com/cb?code=c1&state=s');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).code).toBe('invalid_redirect');
  });

  it('rejects a state mismatch and a missing state when one is expected', () => {
    expect(() =>
      parseInstallRedirect('https://a.example.com/cb?instanceId=i&state=evil', { expectedState: 'good' }),
    ).toThrow(expect.objectContaining({ code: 'state_mismatch' }));
    expect(() => parseInstallRedirect('https://a.example.com/cb?instanceId=i', { expectedState: 'good' })).toThrow(
      expect.objectContaining({ code: 'state_mismatch' }),
    );
  });
});

describe('install → token → wallets against the fake platform', () => {
  let fake: FakePlatform;
  beforeAll(async () => {
    fake = await startFakePlatform();
  });
  afterAll(() => fake.close());

  it('installs, gets a token for the new instance and queries its wallets', async () => {
    const state = 'anti-forgery-123';
    const installUrl = buildInstallUrl({
      installUrl: fake.url,
      appId: fake.appId,
      redirectUri: 'https://app.example.com/installed?from=test',
      state,
    });
    const redirect = await fetch(installUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location');
    expect(location).toMatch(/^https:\/\/app\.example\.com\/installed\?/);

    const { instanceId, code } = parseInstallRedirect(location ?? '', { expectedState: state });
    expect(fake.installations.has(instanceId)).toBe(true);
    expect(code).toMatch(/^code-/);

    const tokens = new TokenManager({ baseUrl: fake.url, clientId: fake.appId, clientSecret: fake.clientSecret });
    const wallets = await queryWallets({ baseUrl: fake.url, tokens, instanceId });
    expect(wallets).toEqual({ wallets: [] });
    expect(fake.walletQueries).toEqual([{ instanceId, query: {} }]);
    expect(fake.tokenRequests).toEqual([{ instanceId }]);
  });

  it('the fake installer refuses a non-HTTPS redirectUri', async () => {
    const url = `${fake.url}/protected/app-installer/install?appId=${fake.appId}&redirectUri=${encodeURIComponent('http://app.example.com/cb')}`;
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
  });
});
