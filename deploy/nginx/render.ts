import { parseArgs } from 'node:util';
import { renderNginxConfig, type Replica } from './nginx-config.js';

/**
 * Prints the nginx configuration for a set of replicas:
 *   npx tsx deploy/nginx/render.ts --listen 80 r1=10.0.0.11:8080 r2=10.0.0.12:8080 > svc-docs.conf
 * Each NAME is that replica's SVC_DOCS_REPLICA_ID.
 */

const USAGE = 'usage: render.ts [--listen PORT|ADDR:PORT] [--max-body-bytes N] NAME=HOST:PORT…';

function main(argv: string[]): string {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { listen: { type: 'string', default: '80' }, 'max-body-bytes': { type: 'string' } },
  });
  const replicas: Replica[] = positionals.map((arg) => {
    const at = arg.indexOf('=');
    if (at <= 0) throw new Error(`"${arg}" is not NAME=HOST:PORT; ${USAGE}`);
    return { id: arg.slice(0, at), address: arg.slice(at + 1) };
  });
  if (replicas.length === 0) throw new Error(USAGE);
  const limit = values['max-body-bytes'];
  if (limit !== undefined && !/^\d+$/.test(limit))
    throw new Error(`--max-body-bytes must be a whole number, got "${limit}"`);
  return renderNginxConfig({
    replicas,
    listen: values.listen,
    maxBodyBytes: limit === undefined ? undefined : Number(limit),
  });
}

try {
  process.stdout.write(main(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`render.ts: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
