/**
 * The MCP resource URI of an indexed page: `svc-docs://<knowledge base>/<path>`, each part
 * percent-encoded segment by segment, so the URI is stable for a page across rebuilds and
 * reloads (it depends on the knowledge base and path only) and a client can read it back. A page
 * longer than the page budget is read in parts: `svc-docs://<knowledge base>/<path>?part=<n>`
 * (a path never holds a bare `?`: it is encoded).
 */

const PAGE_URI_SCHEME = 'svc-docs';

/** The RFC 6570 template clients see in resources/templates/list. */
export const PAGE_URI_TEMPLATE = `${PAGE_URI_SCHEME}://{kb}/{+path}`;

/** The resource URI of the page `path` (forward slashes) of knowledge base `source`. */
export function pageUri(source: string, path: string): string {
  return `${PAGE_URI_SCHEME}://${encodeURIComponent(source)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The URI of part `part` (from 1) of a long page. */
export function pagePartUri(source: string, path: string, part: number): string {
  return `${pageUri(source, path)}?part=${part}`;
}

interface PageRef {
  source: string;
  path: string;
  /** The part asked for (from 1), when the URI names one. */
  part?: number;
}

const PAGE_URI = new RegExp(String.raw`^${PAGE_URI_SCHEME}://([^/]+)/(.+?)(\?part=([1-9]\d{0,5}))?$`);

/** The page a URI names (and the part, if any), or undefined when it is not a page URI this server makes. */
export function parsePageUri(uri: string): PageRef | undefined {
  const match = PAGE_URI.exec(uri);
  if (!match) return undefined;
  const [, kb, encoded, query = '', part] = match as unknown as [string, string, string, string?, string?];
  try {
    const source = decodeURIComponent(kb);
    const path = encoded.split('/').map(decodeURIComponent).join('/');
    // A URI that does not round-trip (a stray "%2F", an unencoded character) is not one we issued.
    if (`${pageUri(source, path)}${query}` !== uri) return undefined;
    return part === undefined ? { source, path } : { source, path, part: Number(part) };
  } catch {
    return undefined;
  }
}
