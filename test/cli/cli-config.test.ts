import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, killChildren, run } from '../helpers/cli.js';

afterAll(killChildren);

/** `svc-docs config`: client configurations for a server's URL. */

describe('svc-docs config', () => {
  it('prints client configurations for the given URL', async () => {
    const result = await run(['config', '--url', 'http://docs.internal:9000/docs']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^# /);
    expect(result.stdout).toContain('"url": "http://docs.internal:9000/docs"');
    expect(result.stdout).not.toContain('127.0.0.1:8080');
    expect(result.stdout).not.toContain('Authorization');
  });

  it('adds the Authorization header placeholder when the server takes a token, inline or from a file', async () => {
    for (const variable of ['SVC_DOCS_AUTH_TOKEN', 'SVC_DOCS_AUTH_TOKEN_FILE']) {
      const result = await run(['config', '--url', 'http://docs.internal:9000/docs'], cliEnv({ [variable]: 'x' }));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, variable).toContain('Authorization');
    }
  });
});
