import type { AbuseReport } from '../abuse/abuse.js';

/** The abuse run as a short Markdown page: /healthz and RSS per phase, what each saw, and the reloads. */

function seenText(seen: Record<string, unknown>): string {
  return Object.entries(seen)
    .filter(([key]) => key !== 'rows')
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
}

export function renderAbuseSummary(r: AbuseReport): string {
  const lines = [
    `# Abuse and soak run${r.quick ? ' (quick)' : ''}`,
    '',
    `The compiled server with its default limits (changed for this run: ${Object.entries(r.settings)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}=${v}`)
      .join(
        ', ',
      )}), its index reloaded every 1.5 s throughout. Each phase's clients have addresses of their own (X-Forwarded-For through the trusted loopback proxy). bench/abuse/abuse.ts; RSS every second in abuse${r.quick ? '-quick' : ''}.json.`,
    '',
    "Event-loop delay max: the server's (its /metrics) / this benchmark's main thread's (its clients; the /healthz probe runs on a thread of its own). A /healthz max well above the server's delay was spent outside the server's loop (the machine's load).",
    '',
    '| phase | s | /healthz p50 / p99 / max ms | event-loop delay max ms, server / bench | RSS start → end MB | seen |',
    '|---|---|---|---|---|---|',
    ...r.phases.map(
      (p) =>
        `| ${p.name} | ${p.seconds} | ${p.healthz.p50Ms} / ${p.healthz.p99Ms} / ${p.healthz.maxMs} | ${p.eventLoopMaxMs.server ?? '-'} / ${p.eventLoopMaxMs.bench ?? '-'} | ${Math.round(p.rssStartMB)} → ${Math.round(p.rssEndMB)} | ${seenText(p.seen)} |`,
    ),
    '',
  ];
  const rows = r.phases.find((p) => Array.isArray(p.seen.rows))?.seen.rows as
    | { method: string; status: number; bytes: number }[]
    | undefined;
  if (rows) {
    lines.push(
      'Batches of 16 of each method (the most a batch may hold), in a 2025 session:',
      '',
      '| method | status | answer bytes |',
      '|---|---|---|',
    );
    lines.push(...rows.map((row) => `| ${row.method} | ${row.status} | ${row.bytes} |`), '');
  }
  const { count, missed, afterFirstMB, afterTargetMB, targetOverFirst } = r.reloads;
  lines.push(
    `Reloads: ${count} in all (${missed} not seen within 10 s); RSS after the first ${afterFirstMB} MB, after the ${r.quick ? '10th' : '100th'} ${afterTargetMB} MB: ${targetOverFirst}× (the first phase: reloads and light searches only).`,
    '',
  );
  return lines.join('\n');
}
