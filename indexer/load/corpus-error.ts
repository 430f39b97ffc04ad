import { SvcDocsError } from '../../src/errors.js';

/** A corpus that cannot be indexed: a folder missing, a file unreadable, a bad knowledge-base name or kb.json. */
export class CorpusError extends SvcDocsError<'invalid_corpus'> {
  override name = 'CorpusError';

  constructor(message: string) {
    super('invalid_corpus', message);
  }
}
