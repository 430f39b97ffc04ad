import { Worker } from 'node:worker_threads';
import type { ChunkOptions } from '../chunk/chunk.js';
import { chunkErrorText, chunkFile, type CorpusFile, prepareFile } from './chunk-file.js';

/**
 * The parser process's entry (parser-process.ts): chunks one document per message. Parsing runs
 * here so that the indexer can stop a parse that takes too long or grows past its heap (ending
 * the process interrupts running code; a timer in the indexer could not interrupt a synchronous
 * parse, and a worker thread out of heap can abort the indexer with it).
 */

export interface ChunkRequest {
  id: number;
  file: CorpusFile;
  options: ChunkOptions;
}

/** Load the converter of this path's format, answered `{ prepared: path }` once loaded (or failed to). */
export interface PrepareRequest {
  prepare: string;
}

const send = (message: unknown) => process.send?.(message);

// The indexer gone (ended, or killed mid-build): nothing is left to parse for.
process.on('disconnect', () => process.exit(0));

/**
 * 'disconnect' waits for the parse at hand to end, which for a hostile page may be minutes (the
 * indexer's CPU limit is what stops it): a thread of a few MB watches for the indexer to be gone
 * (this process handed to another parent) and ends the process then.
 */
const orphanWatch = `
  const ppid = process.ppid;
  setInterval(() => { if (process.ppid !== ppid) process.kill(process.pid, 'SIGKILL'); }, 1000);
`;
// No loader (tsx) in it: it runs the few lines above. A watch that fails leaves the parser as it was.
const watch = new Worker(orphanWatch, { eval: true, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 8 } });
watch.on('error', () => {});
watch.unref();

// Loaded: the first message says so, and the time limit of the first document starts after it.
send({ ready: true });

// One message at a time: the indexer waits for each reply before it sends the next file.
process.on('message', async (request: ChunkRequest | PrepareRequest) => {
  if ('prepare' in request) {
    // A converter that fails to load fails the document's chunk below, which says why.
    await prepareFile(request.prepare).catch(() => {});
    send({ prepared: request.prepare });
    return;
  }
  const { id, file, options } = request;
  try {
    await prepareFile(file.path);
    send({ id, ok: true, doc: chunkFile(file, options) });
  } catch (error) {
    send({ id, ok: false, error: chunkErrorText(error) });
  }
});
