import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderNginxConfig } from '../../deploy/nginx/nginx-config.js';
import { projectRoot } from '../../src/project-root.js';
import { findNginx } from './nginx.js';

/**
 * The nginx configuration generator: the committed example is its output (so the file
 * docs/deployments.md shows and the one replicas.test.ts runs cannot drift apart), its routing rules, its refusals, and
 * nginx's own syntax check of a three-replica configuration.
 */

const EXAMPLE = {
  replicas: [
    { id: 'r1', address: 'svc-docs-1:8080' },
    { id: 'r2', address: 'svc-docs-2:8080' },
  ],
  listen: '80',
};

describe('nginx configuration', () => {
  it("deploy/nginx/svc-docs.conf is what render.ts prints for docs/deployments.md's example", () => {
    // Regenerate with: npx tsx deploy/nginx/render.ts --listen 80 r1=svc-docs-1:8080 r2=svc-docs-2:8080
    const committed = readFileSync(join(projectRoot(), 'deploy', 'nginx', 'svc-docs.conf'), 'utf8');
    expect(committed).toBe(renderNginxConfig(EXAMPLE));
  });

  it('routes each replica prefix to an upstream where that replica is tried first and the others are backups', () => {
    const text = renderNginxConfig({
      ...EXAMPLE,
      replicas: [...EXAMPLE.replicas, { id: 'blue-3', address: '10.0.0.3:9000' }],
    });
    expect(text).toMatch(/map \$http_mcp_session_id \$svc_docs_upstream \{\n\s+default\s+svc_docs;/);
    expect(text).toMatch(/~\^blue-3\\\.\s+svc_docs_blue_3;/);
    const block = text.slice(text.indexOf('upstream svc_docs_blue_3 {'));
    expect(block.slice(0, block.indexOf('}'))).toMatch(
      /server 10\.0\.0\.3:9000 max_fails=0;\n\s+server svc-docs-1:8080 backup;\n\s+server svc-docs-2:8080 backup;/,
    );
    const pool = text.slice(text.indexOf('upstream svc_docs {'));
    expect(pool.slice(0, pool.indexOf('}'))).not.toMatch(/backup|max_fails/);
    expect(text).toContain(`client_max_body_size ${256 * 1024};`);
    expect(text).toContain('proxy_buffering off;');
  });

  it('refuses replica ids a session id could not carry, duplicates and addresses without a port', () => {
    const one =
      (id: string, address = '10.0.0.1:8080') =>
      () =>
        renderNginxConfig({ listen: '80', replicas: [{ id, address }] });
    expect(one('r.1')).toThrow(/replica id "r.1"/);
    expect(one('r1', '10.0.0.1')).toThrow(/must be host:port/);
    expect(one('r1', '10.0.0.1:80; include /etc/passwd')).toThrow(/must be host:port/);
    expect(() => renderNginxConfig({ listen: '80', replicas: [EXAMPLE.replicas[0]!, EXAMPLE.replicas[0]!] })).toThrow(
      /given twice/,
    );
    expect(() => renderNginxConfig({ listen: '80', replicas: [] })).toThrow(/at least one replica/);
  });

  const nginx = findNginx();
  it.skipIf(nginx === undefined && process.env.CI !== 'true')('passes nginx -t for three replicas', () => {
    if (nginx === undefined) throw new Error('nginx is not installed and CI=true: scripts/ensure-nginx.sh installs it');
    const dir = mkdtempSync(join(tmpdir(), 'svc-docs-nginx-t-'));
    try {
      const replicas = ['a', 'b', 'c'].map((id, i) => ({ id, address: `127.0.0.1:${9101 + i}` }));
      writeFileSync(join(dir, 'svc-docs.conf'), renderNginxConfig({ replicas, listen: '127.0.0.1:9100' }));
      writeFileSync(
        join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n    access_log off;\n    client_body_temp_path ${dir}/b;\n    proxy_temp_path ${dir}/p;\n    fastcgi_temp_path ${dir}/f;\n    uwsgi_temp_path ${dir}/u;\n    scgi_temp_path ${dir}/s;\n    include ${dir}/svc-docs.conf;\n}\n`,
      );
      const check = spawnSync(
        nginx,
        ['-t', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
        { encoding: 'utf8' },
      );
      expect(check.status, check.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
