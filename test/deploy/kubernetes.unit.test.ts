import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { SETTINGS } from '../../src/settings/catalogue.js';
import { projectRoot } from '../../src/project-root.js';

/**
 * The Kubernetes example is not run on a cluster here; this checks that it parses and that the
 * pieces refer to each other and to real settings: the Service selects the Deployment's pods and
 * targets a port they declare, the probes ask /healthz and /readyz on it, every SVC_DOCS_*
 * variable is one the server reads, and the index is never built at start.
 */

interface Container {
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  env?: { name: string }[];
  livenessProbe?: { httpGet?: { path: string; port: string } };
  startupProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { exec?: { command: string[] } };
}

interface Manifest {
  kind: string;
  metadata: { name: string };
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> } & Record<string, string>;
    template?: { metadata: { labels: Record<string, string> }; spec: { containers: Container[] } };
    ports?: { targetPort: string }[];
    sessionAffinity?: string;
  };
}

const manifests = parseAllDocuments(
  readFileSync(join(projectRoot(), 'deploy', 'kubernetes', 'svc-docs.yaml'), 'utf8'),
).map((doc) => {
  expect(doc.errors).toEqual([]);
  return doc.toJS() as Manifest;
});
const byKind = (kind: string) => manifests.find((m) => m.kind === kind)!;

describe('deploy/kubernetes/svc-docs.yaml', () => {
  it('a Deployment of several replicas that never index at start', () => {
    const deployment = byKind('Deployment');
    expect(deployment.spec!.replicas).toBeGreaterThanOrEqual(2);
    const [container] = deployment.spec!.template!.spec.containers;
    expect(container!.args).toEqual(['serve', '--no-build']);
  });

  it('probes /healthz for liveness and start-up and /readyz for readiness, on the declared port', () => {
    const [container] = byKind('Deployment').spec!.template!.spec.containers;
    const portNames = container!.ports!.map((p) => p.name);
    for (const probe of [container!.livenessProbe!, container!.startupProbe!]) {
      expect(probe.httpGet!.path).toBe('/healthz');
      expect(portNames).toContain(probe.httpGet!.port);
    }
    const port = container!.ports!.find((p) => p.name === 'http')!.containerPort;
    expect(container!.readinessProbe!.exec!.command.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);
  });

  it('sets only variables the server reads, allowing the probe its Host', () => {
    const [container] = byKind('Deployment').spec!.template!.spec.containers;
    const known = new Set<string>(Object.values(SETTINGS).map((s) => s.variable));
    for (const { name } of container!.env!) expect(known, name).toContain(name);
    const hosts = (container!.env as { name: string; value?: string }[])
      .find((e) => e.name === SETTINGS.allowedHosts.variable)!
      .value!.split(',');
    expect(hosts).toContain('127.0.0.1');
  });

  it('a Service that selects those pods, targets their port and keeps a client on one pod for its session', () => {
    const deployment = byKind('Deployment');
    const service = byKind('Service');
    expect(service.spec!.selector).toEqual(deployment.spec!.template!.metadata.labels);
    const [container] = deployment.spec!.template!.spec.containers;
    expect(container!.ports!.map((p) => p.name)).toContain(service.spec!.ports![0]!.targetPort);
    expect(service.spec!.sessionAffinity).toBe('ClientIP');
  });
});
