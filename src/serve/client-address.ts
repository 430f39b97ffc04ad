import type { ServerOptions } from '../settings/server-options.js';
import { SETTINGS } from '../settings/catalogue.js';

/**
 * The address the start banner gives people: one their clients can use. The server only knows
 * where it listens; a wildcard bind (0.0.0.0 in a container) is reached by a name the Host check
 * accepts, through a port that may be published as another one. Pure: a function of the settings.
 */

type AddressSettings = Pick<ServerOptions, 'host' | 'allowedHosts' | 'oauthResource'>;

export interface ClientAddress {
  /** The MCP endpoint to configure clients with. */
  url: string;
  /** Lines for people: which Host names are accepted, and where the port may differ. */
  notes: string[];
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

/** The URL clients should use, and what to know about it; `url` is where the server listens. */
export function clientAddress(url: string, settings: AddressSettings): ClientAddress {
  // OAuth's resource URL is by definition the one clients use (behind a proxy, say).
  const given = settings.oauthResource;
  if (given !== undefined) return { url: given, notes: unacceptedHost(given, settings.allowedHosts) };
  if (!isWildcard(settings.host)) return { url, notes: [] };
  const listening = new URL(url);
  const named = settings.allowedHosts.find((name) => name !== '*');
  if (named !== undefined) listening.hostname = named;
  return {
    url: listening.href,
    notes: [acceptedHosts(settings.allowedHosts), publishedPort(listening.port || '80')],
  };
}

function acceptedHosts(allowedHosts: readonly string[]): string {
  const example = `e.g. ${SETTINGS.allowedHosts.variable}=docs.internal,localhost`;
  if (allowedHosts.includes('*')) return `It answers requests for any host name (${SETTINGS.allowedHosts.variable}=*).`;
  return `It answers requests for the host names ${allowedHosts.join(', ')} only (a guard against DNS rebinding): to reach it by another name, list every name clients use in ${SETTINGS.allowedHosts.variable} (${example}).`;
}

function publishedPort(port: string): string {
  return `Port ${port} is the one it listens on: through a published or forwarded port (docker run -p HOST_PORT:${port}), clients use HOST_PORT instead.`;
}

/** A resource URL whose host the Host check would refuse: every client would get 403. */
function unacceptedHost(url: string, allowedHosts: readonly string[]): string[] {
  const name = new URL(url).hostname.toLowerCase();
  if (allowedHosts.includes('*') || allowedHosts.includes(name)) return [];
  return [
    `Warning: ${name} is not among the accepted host names (${allowedHosts.join(', ')}): requests to this URL get 403 until it is added to ${SETTINGS.allowedHosts.variable}.`,
  ];
}
