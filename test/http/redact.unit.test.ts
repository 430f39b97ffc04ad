import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundLine, MAX_LINE_CHARS, redactSecrets } from '../../src/http/redact.js';

/** Hiding secrets in log lines: a pure function, checked on literal lines and against the regex it replaces. */

const TOKEN = 'svc-token-"quoted"/slash\\back%pct-' + 'Z'.repeat(24);

/** What the log redacted JWTs with before: right, but quadratic on a long run of `eyJ` without dots. */
const JWT_SHAPED = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;

describe('redactSecrets', () => {
  it('hides the token as sent, JSON-escaped, and percent-encoded in any mix of bytes and hex case', () => {
    const everyByte = [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const mixed = [...TOKEN].map((c, i) => (i % 2 ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join('');
    for (const form of [
      TOKEN,
      JSON.stringify(TOKEN).slice(1, -1),
      encodeURIComponent(TOKEN),
      encodeURI(TOKEN),
      everyByte,
      everyByte.toUpperCase(),
      mixed,
      JSON.stringify(mixed).slice(1, -1),
    ]) {
      const line = `{"path":"/docs/${form}/x","other":"kept"}`;
      expect(redactSecrets(line, [TOKEN]), form).toBe('{"path":"/docs/[redacted]/x","other":"kept"}');
    }
    // As a log line carries it: the path JSON-encoded.
    expect(redactSecrets(JSON.stringify({ path: `/${TOKEN}` }), [TOKEN])).toBe('{"path":"/[redacted]"}');
  });

  it('hides each appearance, keeps near misses and the rest of the line', () => {
    const line = `a ${TOKEN} b ${TOKEN.slice(0, -1)} c ${TOKEN}${TOKEN}`;
    expect(redactSecrets(line, [TOKEN])).toBe(`a [redacted] b ${TOKEN.slice(0, -1)} c [redacted][redacted]`);
    expect(redactSecrets('nothing here', [TOKEN])).toBe('nothing here');
  });

  it('hides JWT-shaped runs as the regex did, on any text without escapes', () => {
    const unit = fc.constantFrom('eyJ', 'e', 'y', 'J', '.', '.', 'a', '-', '_', ' ', '"', 'é');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 300 }), (line) => {
        expect(redactSecrets(line)).toBe(line.replace(JWT_SHAPED, '[redacted]'));
      }),
      { numRuns: 5000 },
    );
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(redactSecrets(`{"session":"x${jwt}","path":"/docs"}`)).toBe('{"session":"x[redacted]","path":"/docs"}');
  });
});

describe('boundLine', () => {
  it('leaves a short line alone and cuts a long JSON line to valid JSON, its long values shortened', () => {
    expect(boundLine('{"a":1}')).toBe('{"a":1}');
    const long = JSON.stringify({ event: 'request', path: `/${'x'.repeat(20_000)}`, status: 404 });
    const cut = boundLine(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
    const parsed = JSON.parse(cut) as { event: string; path: string; status: number };
    expect(parsed).toMatchObject({ event: 'request', status: 404 });
    expect(parsed.path).toMatch(/^\/x+…\(\d+ more characters\)$/);
    expect(boundLine('y'.repeat(10_000)).length).toBeLessThanOrEqual(MAX_LINE_CHARS + 40);
  });
});
