import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { webhookTestbed } from './webhook-testbed.js';

/** Webhook endpoints in real processes that die inside onEvent: nothing is lost, and nothing is re-run forever. */

const bed = webhookTestbed();
const { openStore, endpoint, cleanups } = bed;

describe('webhook handler: crashes', () => {
  it('a crash between the 200 and processing loses nothing: a new handler on the same file processes it once', async () => {
    const storeFile = join(bed.dir, 'crash.db');
    const keyFile = join(bed.dir, 'platform.pem');
    writeFileSync(keyFile, bed.fake.publicKeyPem);
    const fixture = fileURLToPath(new URL('./fixtures/crash-after-ack.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, storeFile, keyFile, bed.fake.webhookAlgorithm], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    const exited = once(child, 'exit');
    const [childUrl] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];

    const sent = await bed.fake.sendWebhook(childUrl, { instanceId: 'merchant-a', entityId: 'g1' });
    expect(sent.status).toBe(200);
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL'); // it died inside onEvent, after answering

    const restarted = await endpoint({ store: openStore('crash.db') });
    expect(await restarted.handler.recover()).toBe(1);
    await restarted.handler.drain();
    expect(restarted.seen.map((d) => d.event.id)).toEqual([sent.eventId]);

    // The platform's retry of the same delivery is a duplicate, and a second restart finds nothing to do.
    expect((await bed.fake.postWebhook(restarted.url, sent.jwt)).status).toBe(200);
    await restarted.handler.drain();
    const again = await endpoint({ store: openStore('crash.db') });
    expect(await again.handler.recover()).toBe(0);
    expect(restarted.seen).toHaveLength(1);
    expect(again.seen).toEqual([]);
  });

  it('a delivery whose onEvent kills the process is counted per start and parked as failed after maxAttempts', async () => {
    const storeFile = join(bed.dir, 'poison.db');
    const keyFile = join(bed.dir, 'platform.pem');
    const attemptsLog = join(bed.dir, 'attempts.log');
    writeFileSync(keyFile, bed.fake.publicKeyPem);
    writeFileSync(attemptsLog, '');
    const start = () => startCrashFixture([storeFile, keyFile, bed.fake.webhookAlgorithm, attemptsLog, '3']);

    const first = await start();
    expect(first.url).toBeDefined();
    const sent = await bed.fake.sendWebhook(first.url!, { instanceId: 'merchant-a', entityId: 'g1' });
    expect(sent.status).toBe(200);
    expect(await first.exited).toBe('SIGKILL');
    // Each restart's recover() runs it again, and it kills that process too.
    for (let restart = 0; restart < 2; restart++) expect((await start()).signal).toBe('SIGKILL');
    // The fourth start finds the attempts used up: it parks the delivery instead of running it.
    const fourth = await start();
    expect(fourth.url, 'the fourth process survived its recover()').toBeDefined();
    fourth.kill();

    expect(readFileSync(attemptsLog, 'utf8').trim().split('\n').map(Number)).toEqual([1, 2, 3]);
    const store = openStore('poison.db');
    expect(await store.pending()).toEqual([]);
    expect(await store.list('failed')).toMatchObject([
      {
        delivery: { event: { id: sent.eventId } },
        attempts: 3,
        lastError: expect.stringMatching(/3 attempts started/),
      },
    ]);
  });
});

/**
 * Starts the crash fixture; resolves with its URL once it listens, or with the signal it died of
 * if it dies first (during its start-up recover()).
 */
async function startCrashFixture(
  args: string[],
): Promise<{ url?: string; signal?: NodeJS.Signals | null; exited: Promise<NodeJS.Signals | null>; kill: () => void }> {
  const fixture = fileURLToPath(new URL('./fixtures/crash-after-ack.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const kill = () => child.kill('SIGKILL');
  cleanups.push(kill);
  const exited = once(child, 'exit').then(([, signal]) => signal as NodeJS.Signals | null);
  const line = once(createInterface({ input: child.stdout }), 'line').then(([url]) => ({ url: url as string }));
  const first = await Promise.race([line, exited.then((signal) => ({ signal }))]);
  return { ...first, exited, kill };
}
