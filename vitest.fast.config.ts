import { defineConfig } from 'vitest/config';

/**
 * The fast tier (`npm run test:fast`, well under a minute): tests of pure functions and small
 * modules that need no model, no index build and no server. `npm test` runs these and everything
 * else. A new test that needs none of those belongs in this list.
 */
export default defineConfig({
  test: {
    include: [
      'test/bench/*.test.ts',
      'test/config.test.ts',
      'test/corpus/queries.test.ts',
      'test/corpus/structure.test.ts',
      'test/deploy/kubernetes.test.ts',
      'test/index/lexical-index.test.ts',
      'test/index/tokenize.test.ts',
      'test/indexer/chunk.test.ts',
      'test/indexer/formats/asciidoc.test.ts',
      'test/indexer/formats/html-page.test.ts',
      'test/indexer/formats/html.test.ts',
      'test/indexer/formats/notebook.test.ts',
      'test/indexer/formats/text.test.ts',
      'test/indexer/section-tokens.test.ts',
      'test/mcp/http/access.test.ts',
      'test/cli/client-config.test.ts',
      'test/mcp/oauth/settings.test.ts',
      'test/mcp/tools/pages.test.ts',
      'test/mcp/render/render.test.ts',
      'test/mcp/server-options.test.ts',
      'test/mcp/http/sessions.test.ts',
      'test/package/source-shape.test.ts',
      'test/paths.test.ts',
      'test/search/corpus-profile.test.ts',
      'test/search/cosines.test.ts',
      'test/search/edit-distance.test.ts',
      'test/search/fuse.test.ts',
      'test/search/query.test.ts',
      'test/search/score-order.test.ts',
      'test/search/typos.test.ts',
      'test/search/window.test.ts',
      'packages/platform/test/install.test.ts',
      'packages/platform/test/token-manager.test.ts',
      'packages/platform/test/trigger-schema.test.ts',
      'packages/platform/test/triggers.test.ts',
      'packages/platform/test/webhook-verify.test.ts',
    ],
    pool: 'forks',
  },
});
