import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainText, tokenize } from '../../src/index/tokenize.js';

describe('tokenize', () => {
  it.each([
    ['svc-account-id', ['svc-account-id', 'svc', 'account', 'id']],
    ['entityEventSequence', ['entityeventsequence', 'entiti', 'event', 'sequenc']],
    ['svc.v1.gift_card_initialized', ['svc.v1.gift_card_initialized', 'svc', 'v1', 'gift', 'card', 'initi']],
    ['/workflows/v1/events/report', ['workflows/v1/events/report', 'workflow', 'v1', 'event', 'report']],
  ])('finds the identifier %s whole and in parts', (input, expected) => {
    for (const term of expected) expect(tokenize(input)).toContain(term);
  });

  it('gives snake_case and camelCase spellings a common joined term', () => {
    expect(tokenize('entity_event_sequence')).toContain('entityeventsequence');
    expect(tokenize('instanceId')).toContain('instanceid');
    expect(tokenize('instance_id')).toContain('instanceid');
  });

  it('gives an identifier met again the same terms, whatever a caller did with the last list', () => {
    const terms = ['svc-account-id', 'svcaccountid', 'svc', 'account', 'id'];
    const first = tokenize('svc-account-id');
    expect(first).toEqual(terms);
    first.push('changed');
    first[0] = 'changed';
    expect(tokenize('svc-account-id and svc-account-id')).toEqual([...terms, ...terms]);
  });

  it('stems plain words and drops stop words', () => {
    expect(tokenize('How do I refund the gift cards?')).toEqual(['refund', 'gift', 'card']);
    expect(tokenize('Verifying verified verification')).toEqual(['verifi', 'verifi', 'verif']);
  });

  it('keeps numbers and non-Latin words', () => {
    expect(tokenize('status 401 東京 café')).toEqual(['statu', '401', '東京', 'café']);
  });

  it('drops link targets and HTML from plain text', () => {
    const text = plainText('See [the guide](https://example.com/very/long) and <b>bold</b> ![img](a.png)');
    expect(tokenize(text)).not.toContain('exampl');
    expect(tokenize(text)).toContain('guid');
  });

  it('never throws and returns bounded lower-case terms for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (input) => {
        const terms = tokenize(input);
        for (const t of terms) {
          expect(t.length).toBeGreaterThan(0);
          expect(t.length).toBeLessThanOrEqual(64);
          expect(t).toBe(t.toLowerCase());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic and index/query symmetric (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('svc', '-', '.', '_', 'Gift', 'card', 'ID', 'x9', ' ', '/'), { maxLength: 12 }),
        (parts) => {
          const text = parts.join('');
          expect(tokenize(text)).toEqual(tokenize(text));
          // A query that is a substring-free copy of the text yields a subset of its terms.
          const terms = new Set(tokenize(`${text} trailing words`));
          for (const t of tokenize(text)) expect(terms.has(t)).toBe(true);
        },
      ),
    );
  });
});
