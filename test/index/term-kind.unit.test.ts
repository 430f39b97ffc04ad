import { describe, expect, it } from 'vitest';
import { termKind } from '../../src/index/term-kind.js';

/** The kinds of names the docs use, read off their shape: what the tool description's examples prefer. */

describe('termKind', () => {
  it('tells names a model can search for from hosts, files, folders, constants, globals and the product', () => {
    const kinds: Record<string, string[]> = {
      name: [
        'vi.spyOn',
        'targetRevision',
        'spec.destination.namespace',
        'dex.config',
        'SVC_DOCS_MODEL',
        'GHCR_TOKEN',
        'client_credentials',
        'time.Format',
        'template.HTML',
      ],
      header: ['Content-Type', 'Mcp-Session-Id', 'Sec-WebSocket-Accept', 'X-Request-Id'],
      flag: ['--insecure', '--allow-remote-models', '--ui'],
      host: ['argocd.example.com', 'example.com', 'api.internal', 'my.svc.example'],
      file: ['cm.yaml', 'kb.json', 'mkdocs.yml', 'go.mod', 'Chart.yaml', 'Next.js', 'vitest.config.ts'],
      folder: ['node_modules'],
      constant: ['PERMISSION_DENIED', 'NOT_FOUND', 'API_KEY', 'YOUR_ACCESS_TOKEN'],
      global: ['JSON.parse', 'process.env.CI', 'import.meta.env', 'Promise.all'],
      product: ['tRPC', 'Vitest'],
    };
    for (const [kind, terms] of Object.entries(kinds))
      for (const term of terms) expect(termKind(term, term === 'Vitest' ? 'vitest' : 'trpc'), term).toBe(kind);
  });
});
