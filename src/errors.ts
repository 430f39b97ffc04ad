/**
 * The errors svc-docs raises for its callers. Each has a `code` to branch on; the message is for
 * people (what went wrong and what to do) and may change, so no code looks at it. The named
 * classes (IndexError, SettingsError …) are the same errors with their codes fixed, for
 * `instanceof` where a whole family is handled alike.
 */
export type SvcDocsErrorCode =
  /** A setting (variable, flag or server option) that cannot be used. */
  | 'invalid_setting'
  /** A command line that cannot be run (an empty search term, a --url that is not a URL). */
  | 'invalid_usage'
  /** A corpus folder that cannot be indexed (missing, not a folder, a bad knowledge-base name or git+ URL). */
  | 'invalid_corpus'
  /** A git corpus that cannot be fetched now (unreachable, a branch missing, git missing, locked): its `reason` says which. */
  | 'corpus_unavailable'
  /** No index in the folder: build one (`svc-docs index`). */
  | 'index_missing'
  /** An index that cannot be read or written (damaged, of another format): rebuild it. */
  | 'index_unreadable'
  /** The index was built with another model than the one asked for or loaded. */
  | 'model_mismatch'
  /** A model that cannot be found or loaded. */
  | 'model_unavailable'
  /** A search term or limit that cannot be searched. */
  | 'invalid_search'
  /** A search that failed in a search worker (the worker stopped, or the pool is closed). */
  | 'search_failed'
  /**
   * A rebuild by `serve --watch`'s reindexer that did not complete (the previous index keeps
   * serving): its process died or could not start, the build failed, one was already running, or
   * the reindexer was closed.
   */
  | 'reindex_died'
  | 'reindex_failed'
  | 'reindex_busy'
  | 'reindex_closed'
  /** The docs-gap report's worker failed (its heap limit, a store it could not read). */
  | 'gap_report_failed'
  /** The server cannot listen on its address (the port is taken, or not allowed). */
  | 'listen_failed'
  /** A resources/list cursor this server did not hand out. */
  | 'invalid_cursor'
  /** OAuth: a token this server does not accept (RFC 6750's error names). */
  | 'invalid_token'
  | 'insufficient_scope'
  /** OAuth: the issuer's signing keys cannot be fetched (not the client's fault). */
  | 'keys_unavailable'
  /** OAuth: a JWKS file that cannot be used. */
  | 'jwks_file';

export class SvcDocsError<C extends SvcDocsErrorCode = SvcDocsErrorCode> extends Error {
  override name = 'SvcDocsError';

  constructor(
    readonly code: C,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A named class of SvcDocsError with its code fixed, for an error that is one message:
 * `class SettingsError extends codedError('SettingsError', 'invalid_setting') {}`.
 */
export function codedError<C extends SvcDocsErrorCode>(className: string, code: C) {
  return class extends SvcDocsError<C> {
    override name = className;

    constructor(message: string) {
      super(code, message);
    }
  };
}

/**
 * An error whose message is a problem and what to do about it (`<problem>: <advice>`): `problem`
 * alone is for a caller that does something else about it (rebuilds, and says so).
 */
export class ProblemError<C extends SvcDocsErrorCode = SvcDocsErrorCode> extends SvcDocsError<C> {
  constructor(
    code: C,
    readonly problem: string,
    advice: string,
  ) {
    super(code, `${problem}: ${advice}`);
  }
}
