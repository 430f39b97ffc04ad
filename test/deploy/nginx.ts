import { type ChildProcess, spawn } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { renderNginxConfig, type Replica } from '../../deploy/nginx/nginx-config.js';
import { freePort } from '../../bench/lib/free-port.js';

/**
 * A private nginx for a test: Debian's binary, run in the foreground with its own prefix, config,
 * pid, logs and temp folders, on a free loopback port, serving deploy/nginx's configuration.
 */

/** The nginx binary on PATH or at Debian's /usr/sbin/nginx (not on PATH for non-root users). */
export function findNginx(): string | undefined {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'nginx')),
    '/usr/sbin/nginx',
  ];
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** nginx's main file around the http-level include that deploy/nginx/svc-docs.conf is. */
function mainConfig(dir: string): string {
  return `# Written by test/deploy/nginx.ts: everything this nginx writes stays in ${dir}.
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 512; }
http {
    log_format upstream '$status $request_method $upstream_addr "$http_mcp_session_id"';
    access_log ${dir}/access.log upstream;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/svc-docs.conf;
}
`;
}

export interface RunningNginx {
  /** The MCP endpoint through nginx. */
  url: string;
  errorLog(): string;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

export async function startNginx(binary: string, replicas: Replica[], maxBodyBytes?: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-nginx-'));
  // Run as root, nginx's workers drop to `nobody`, which must reach its temp folders here.
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir));
  const errorLog = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  // The free port may be taken between the probe and nginx's bind: then try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    writeFileSync(
      join(dir, 'svc-docs.conf'),
      renderNginxConfig({ replicas, listen: `127.0.0.1:${port}`, maxBodyBytes }),
    );
    const child = spawn(
      binary,
      ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const health = `http://127.0.0.1:${port}/healthz`;
    while (child.exitCode === null && !(await answers(health))) await new Promise((resolve) => setTimeout(resolve, 50));
    if (child.exitCode === null) {
      return {
        url: `http://127.0.0.1:${port}/docs`,
        errorLog,
        stop: async () => {
          // SIGTERM: nginx's fast shutdown, master and workers.
          child.kill('SIGTERM');
          await exited(child);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    if (attempt >= 3 || !/bind\(\)|Address already in use/.test(stderr + errorLog())) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${errorLog()}`);
    }
  }
}
