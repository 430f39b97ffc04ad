import { SvcDocsError } from '../errors.js';
import { SETTINGS } from '../settings/catalogue.js';
import type { SearchOptions } from './types.js';

/** What a search accepts: the term must have words in it, the limit must be a positive whole number. */

export class SearchInputError extends SvcDocsError<'invalid_search'> {
  override name = 'SearchInputError';

  constructor(message: string) {
    super('invalid_search', message);
  }
}

/** The trimmed term and the limit, or a SearchInputError saying what to pass instead. */
export function checkSearchInput(term: string, options: SearchOptions): { text: string; limit: number } {
  const text = term.trim();
  if (text === '') throw new SearchInputError('the search term is empty: pass some words or identifiers to look for');
  const limit = options.limit ?? SETTINGS.maxResults.default;
  if (!Number.isInteger(limit) || limit < 1)
    throw new SearchInputError(`limit must be a positive whole number, got ${limit}`);
  return { text, limit };
}
