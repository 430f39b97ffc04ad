import cliProgress from 'cli-progress';
import type { BuildProgress } from '../../indexer/write/embed.js';
import { terminalLines } from '../observe/terminal-text.js';

/**
 * Build progress for the terminal: a bar on a TTY, otherwise a plain line per phase at 0, 25,
 * 50, 75 and 100 %, so CI logs and Docker logs stay readable. The indexer's lines name corpus
 * files, so their control characters are escaped (terminal-text.ts).
 */
interface ProgressReporter {
  update(progress: BuildProgress): void;
  log(line: string): void;
  stop(): void;
}

const LABELS: Record<BuildProgress['phase'], string> = {
  'embed-sections': 'embedding sections',
  // A full build embeds each document's sections as its parse comes in (indexer/write/streamed-sections.ts).
  'index-documents': 'indexing documents',
};

export function progressReporter(stream: NodeJS.WriteStream): ProgressReporter {
  if (stream.isTTY) {
    let bar: cliProgress.SingleBar | undefined;
    let phase: string | undefined;
    return {
      update(p) {
        if (phase !== p.phase) {
          bar?.stop();
          phase = p.phase;
          bar = new cliProgress.SingleBar(
            { stream, format: `${LABELS[p.phase].padEnd(22)} [{bar}] {percentage}% {value}/{total}`, hideCursor: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(p.total, p.done);
        } else bar?.update(p.done);
      },
      log(line) {
        stream.write(`\n${terminalLines(line)}\n`);
      },
      stop() {
        bar?.stop();
        bar = undefined;
      },
    };
  }
  const reported = new Map<string, number>();
  return {
    update(p) {
      const quarter = p.total === 0 ? 4 : Math.floor((4 * p.done) / p.total);
      if ((reported.get(p.phase) ?? -1) >= quarter) return;
      reported.set(p.phase, quarter);
      stream.write(`${LABELS[p.phase]}: ${p.done}/${p.total}\n`);
    },
    log(line) {
      stream.write(`${terminalLines(line)}\n`);
    },
    stop() {},
  };
}
