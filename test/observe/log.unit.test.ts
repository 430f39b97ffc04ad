import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonLog, logLine } from '../../src/observe/log.js';
import { chooseLogFormat, logWriter, prettyLine } from '../../src/observe/pretty-log.js';
import { secretFree } from '../../src/observe/redacted-log.js';

/** The log's one shape (time, level, event first), its view for people, and secrets kept out of both. */

const at = new Date('2026-11-27T10:11:12.345Z');

describe('the structured log', () => {
  it('writes time, level and event first, info by default, undefined fields left out', () => {
    const line = logLine({ event: 'reloaded', sections: 3, previous: undefined }, at);
    expect(line).toBe('{"time":"2026-11-27T10:11:12.345Z","level":"info","event":"reloaded","sections":3}');
    expect(JSON.parse(logLine({ level: 'warn', event: 'x', time: 'forged', level2: 1 }, at))).toMatchObject({
      level: 'warn',
    });
  });

  it('shows a line to people as time, level, event, message and fields', () => {
    const line = logLine(
      { event: 'ready', message: 'svc-docs is serving MCP at http://x/docs', url: 'http://x/docs', n: 2, tags: ['a'] },
      at,
    );
    expect(prettyLine(line)).toBe(
      '10:11:12.345 INFO  ready svc-docs is serving MCP at http://x/docs url=http://x/docs n=2 tags=["a"]',
    );
    expect(prettyLine(logLine({ level: 'error', event: 'e', error: 'two words' }, at))).toBe(
      '10:11:12.345 ERROR e error="two words"',
    );
    expect(prettyLine('not json')).toBe('not json');
    // Values, messages and events a client chose reach a terminal: their control characters are escaped.
    const hostile = logLine({ event: 'e\u001b[2J', message: 'm\u009b1m', clientName: '\u001b]0;x\u0007' }, at);
    expect(prettyLine(hostile)).toBe('10:11:12.345 INFO  e\\u{1b}[2J m\\u{9b}1m clientName="\\u001b]0;x\\u0007"');
    expect(prettyLine(line, true)).toContain('\u001b[36mINFO ');
  });

  it('is pretty on a terminal and JSON elsewhere, unless asked', () => {
    expect(chooseLogFormat(undefined, { isTTY: true })).toBe('pretty');
    expect(chooseLogFormat(undefined, {})).toBe('json');
    expect(chooseLogFormat('json', { isTTY: true })).toBe('json');
    const stream = new PassThrough();
    logWriter('pretty', stream)(logLine({ event: 'stop' }, at));
    logWriter('json', stream)('{"a":1}');
    expect(stream.read().toString()).toBe('10:11:12.345 INFO  stop\n{"a":1}\n');
  });

  it('never passes a token or a JWT on, in the JSON line or its pretty view', () => {
    const token = 'tok"en/with%odd-0123456789';
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const written: string[] = [];
    const log = jsonLog(
      secretFree((line) => written.push(line, prettyLine(line)), [token, undefined, 'other-secret-value']),
    );
    log({
      event: 'request',
      term: `find ${token} and ${jwt}`,
      path: `/${encodeURIComponent(token)}`,
      x: 'other-secret-value',
    });
    const all = written.join('\n');
    for (const form of [
      token,
      JSON.stringify(token).slice(1, -1),
      encodeURIComponent(token),
      jwt,
      'other-secret-value',
    ])
      expect(all).not.toContain(form);
    expect(all).toContain('[redacted]');
  });
});
