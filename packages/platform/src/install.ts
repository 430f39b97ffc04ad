/**
 * The app-installation redirect (corpus/svc-platform/apps/install-flow.md): the URL that sends a merchant to
 * the installer, and the parsing of the redirect that comes back.
 */
import { timingSafeEqual } from 'node:crypto';
import { PlatformError } from './errors.js';
import { absoluteUrl, requireNonEmpty, withoutCredentials } from './http.js';

export const INSTALL_PATH = '/protected/app-installer/install';

export interface InstallUrlOptions {
  /** The installer address, `{install_url}`. */
  installUrl: string;
  appId: string;
  /** Where the merchant lands after approval. Must be HTTPS. */
  redirectUri: string;
  /** Opaque anti-forgery value; returned unchanged on the redirect. */
  state?: string;
}

/** `{install_url}/protected/app-installer/install?appId=..&redirectUri=..&state=..` */
export function buildInstallUrl(options: InstallUrlOptions): string {
  const appId = requireNonEmpty(options.appId, 'appId');
  const base = absoluteUrl(options.installUrl, 'installUrl');
  const redirect = absoluteUrl(options.redirectUri, 'redirectUri', ': pass e.g. "https://app.example.com/installed"');
  if (redirect.protocol !== 'https:') {
    throw new PlatformError(
      'invalid_argument',
      `redirectUri ${JSON.stringify(withoutCredentials(options.redirectUri))} must use https: the installer only redirects to HTTPS addresses`,
    );
  }
  const query = [`appId=${encodeURIComponent(appId)}`, `redirectUri=${encodeURIComponent(options.redirectUri)}`];
  if (options.state !== undefined) query.push(`state=${encodeURIComponent(options.state)}`);
  return `${base.href.replace(/\/+$/, '')}${INSTALL_PATH}?${query.join('&')}`;
}

export interface InstallRedirect {
  /** Authorization code from the installer. Not needed for `client_credentials`; kept for completeness. */
  code: string | undefined;
  /** The merchant installation id: store it, then request tokens with it. */
  instanceId: string;
  state: string | undefined;
}

/**
 * Reads `code`, `instanceId` and `state` from the URL the installer redirected
 * to. With `expectedState`, the returned `state` must match it exactly.
 */
export function parseInstallRedirect(url: string | URL, options: { expectedState?: string } = {}): InstallRedirect {
  // Accept a bare path+query as an express `req.originalUrl` would give.
  const parsed = typeof url === 'string' ? URL.parse(url, 'https://redirect.invalid') : url;
  if (parsed === null)
    throw new PlatformError('invalid_redirect', `the install redirect ${JSON.stringify(String(url))} is not a URL`);
  const instanceId = parsed.searchParams.get('instanceId');
  if (instanceId === null || instanceId === '') {
    throw new PlatformError(
      'invalid_redirect',
      'the install redirect has no instanceId query parameter: the merchant did not complete the installation; send them to buildInstallUrl() again',
    );
  }
  const state = parsed.searchParams.get('state') ?? undefined;
  if (options.expectedState !== undefined && (state === undefined || !sameString(state, options.expectedState))) {
    throw new PlatformError(
      'state_mismatch',
      'the install redirect state does not match the state this app sent: the redirect may be forged; restart the installation',
    );
  }
  return { code: parsed.searchParams.get('code') ?? undefined, instanceId, state };
}

/** Constant-time comparison, so the anti-forgery value cannot be guessed byte by byte. */
function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
