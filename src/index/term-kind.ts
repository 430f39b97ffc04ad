/**
 * What kind of name an identifier the docs use is, read off its shape alone: the tool
 * description's example terms should show a model the API names, options, headers and flags it
 * can search for, not the hosts, file names and placeholder or error constants that docs also
 * put in code spans (`argocd.example.com`, `cm.yaml`, `PERMISSION_DENIED`, `<ACCESS_TOKEN>`).
 * Pure; a few word lists, no dictionary.
 */

export type TermKind =
  /** An API name, option or field: `vi.spyOn`, `targetRevision`, `SVC_DOCS_MODEL`. */
  | 'name'
  /** An HTTP header: `Content-Type`, `Mcp-Session-Id`. */
  | 'header'
  /** A command-line flag: `--insecure`. */
  | 'flag'
  | 'host'
  | 'file'
  /** A well-known folder (`node_modules`). */
  | 'folder'
  /** An error code or a placeholder (`NOT_FOUND`, `API_KEY`): every word of it is such a word. */
  | 'constant'
  /** A language's or browser's own global (`JSON.parse`, `import.meta.env`), not the docs' API. */
  | 'global'
  /** The knowledge base's own name (`tRPC` in the tRPC docs). */
  | 'product';

const PREFERRED: ReadonlySet<TermKind> = new Set(['name', 'header', 'flag']);

const FILE_EXTENSIONS = new Set(
  (
    'cfg cjs conf css csv env gif go html htm ini jpg js json jsx lock md mdx mjs mod png py rb rs scss sh ' +
    'sum svg toml ts tsx txt xml yaml yml'
  ).split(' '),
);
const TOP_LEVEL_DOMAINS = new Set(
  'com org net io dev app cloud local localhost internal example test invalid'.split(' '),
);
const FOLDERS = new Set(['node_modules', '__pycache__', 'site-packages', 'bower_components']);
const GLOBALS = /^(Array|JSON|Math|Number|Object|Promise|String|console|document|import\.meta|process|window)\./;
/** The words error codes and placeholders are made of (gRPC and HTTP status names, credential stand-ins). */
const CONSTANT_WORDS = new Set(
  (
    'ABORTED ACCESS ACCOUNT ALREADY API ARGUMENT BAD CANCELLED CLIENT CONFLICT DATA DEADLINE DENIED ERROR ' +
    'EXAMPLE EXCEEDED EXHAUSTED EXISTS FAILED FAILURE FORBIDDEN FOUND ID INTERNAL INVALID KEY LOSS MY NAME NOT ' +
    'OF OUT PASSWORD PERMISSION PLACEHOLDER PRECONDITION RANGE REQUEST RESOURCE SECRET TIMEOUT TOKEN ' +
    'UNAUTHENTICATED UNAUTHORIZED UNAVAILABLE UNIMPLEMENTED UNKNOWN URL USER VALUE YOUR'
  ).split(' '),
);

const HEADER = /^[A-Z][A-Za-z\d]*(?:-[A-Z][A-Za-z\d]*)+$/;
const FLAG = /^--[a-z][a-z\d]*(?:-[a-z\d]+)*$/;
const CONSTANT = /^[A-Z][A-Z\d]*(?:_[A-Z\d]+)+$/;

function lastPart(term: string): string {
  return term.slice(term.lastIndexOf('.') + 1);
}

export function termKind(term: string, kbName: string): TermKind {
  if (term.toLowerCase() === kbName.trim().toLowerCase()) return 'product';
  if (HEADER.test(term)) return 'header';
  if (FLAG.test(term)) return 'flag';
  if (FOLDERS.has(term)) return 'folder';
  if (GLOBALS.test(term)) return 'global';
  if (term.includes('.')) {
    const last = lastPart(term);
    if (FILE_EXTENSIONS.has(last)) return 'file';
    if (term === term.toLowerCase() && (TOP_LEVEL_DOMAINS.has(last) || term.split('.').includes('example')))
      return 'host';
  }
  if (CONSTANT.test(term) && term.split('_').every((word) => CONSTANT_WORDS.has(word))) return 'constant';
  return 'name';
}

/** A code span that names a header or a flag: candidates beside the identifiers. */
export function isHeaderOrFlag(code: string): boolean {
  return HEADER.test(code) || FLAG.test(code);
}

/** Whether a term of this kind shows a model something it can search for. */
export function preferredTerm(term: string, kbName: string): boolean {
  return PREFERRED.has(termKind(term, kbName));
}
