import { Worker } from 'node:worker_threads';
import type { DetailedSearch, RankedResult, SearchParts } from '../search/searcher-types.js';
import type { SearchPolicy } from '../search/search-policy.js';
import { CLIENT_ACTIVE_MS, FairQueue } from '../http/fair-queue.js';
import type { FromWorker, HnswFile, ToWorker } from './pool-protocol.js';
import type { SearchOptions } from '../search/types.js';
import { SvcDocsError } from '../errors.js';
import { logLine } from '../observe/log.js';
import { workerEntry } from '../worker-entry.js';

/**
 * Worker threads that run searches off the event loop, so throughput grows with cores and a slow
 * search never delays /healthz or another session's protocol traffic. Each index is loaded into
 * every worker under a generation number (its big arrays shared, not copied); a search goes to
 * the worker with the fewest searches in flight. A worker that dies fails its searches in flight
 * and is replaced, with every loaded generation.
 */

class SearchWorkerError extends SvcDocsError<'search_failed'> {
  override name = 'SearchWorkerError';

  constructor(message: string) {
    super('search_failed', message);
  }
}

interface Pending {
  worker: PoolWorker;
  client: string;
  resolve(detailed: DetailedSearch<RankedResult>): void;
  reject(error: Error): void;
}

interface PoolWorker {
  thread: Worker;
  ready: Promise<void>;
  /** Searches and loads sent and not answered: while any are, the worker keeps the process alive. */
  inFlight: number;
  /** Searches sent and not answered (at most SEARCHES_PER_WORKER). */
  searching: number;
  /** Loads sent and not answered: close() waits for them (loadsSettled). */
  loading: number;
  /** Called once `loading` is back to 0, or the worker has exited. */
  onLoadsSettled?: () => void;
}

/** A search waiting for room in a worker. */
interface Job {
  generation: number;
  term: string;
  options: SearchOptions;
  queryVector?: () => Promise<Float32Array>;
  resolve(detailed: DetailedSearch<RankedResult>): void;
  reject(error: Error): void;
}

/** Searches one worker is sent at once: two, so it never waits for the main thread between searches; the rest
 * wait in turn by client, one per worker per client while others are about (src/http/fair-queue.ts, issue 40). */
const SEARCHES_PER_WORKER = 2;

/** Counts work in or out of a worker; an idle worker does not keep the process alive. */
function busy(worker: PoolWorker, delta: 1 | -1): void {
  worker.inFlight += delta;
  if (delta === 1 && worker.inFlight === 1) worker.thread.ref();
  if (worker.inFlight === 0) worker.thread.unref();
}

type LoadMessage = Extract<ToWorker, { type: 'load' }>;

/**
 * A worker's young generation, MB. V8's default lets each isolate's grow to over 100 MB under a
 * burst of searches, most of it touched once and kept; 8 MB saved ≈ 25 MB of RSS per worker on
 * the Argo CD index with no throughput change we could measure (bench/speed/memory-probe.ts reports it).
 */
const WORKER_YOUNG_GENERATION_MB = 8;

export class SearchPool {
  private readonly workers: PoolWorker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly waiting: FairQueue<Job>;
  /** Loaded generations, so a replacement worker can load them too. */
  private readonly loaded = new Map<number, LoadMessage>();
  private readonly loading = new Map<number, { remaining: number; resolve(): void; reject(error: Error): void }>();
  private nextId = 0;
  private nextGeneration = 0;
  private closed = false;

  constructor(
    readonly threads: number,
    private readonly log: (line: string) => void = () => {},
  ) {
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`a search pool needs a whole number of threads ≥ 1, got ${threads}`);
    this.waiting = new FairQueue<Job>({ share: threads, activeMs: CLIENT_ACTIVE_MS });
    for (let i = 0; i < threads; i++) this.workers.push(this.spawn());
  }

  private spawn(): PoolWorker {
    const { url, execArgv } = workerEntry('pool-worker', import.meta.url);
    const thread = new Worker(url, {
      execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const { promise: ready, resolve: onReady } = Promise.withResolvers<void>();
    const worker: PoolWorker = { thread, ready, inFlight: 0, searching: 0, loading: 0 };
    thread.on('message', (message: FromWorker) => this.onMessage(worker, message, onReady));
    thread.on('error', (error) => this.onExit(worker, `${error.name}: ${error.message}`));
    thread.on('exit', (code) => this.onExit(worker, `exit code ${code}`));
    thread.unref();
    for (const load of this.loaded.values()) this.postLoad(worker, load);
    return worker;
  }

  private onMessage(worker: PoolWorker, message: FromWorker, onReady: () => void): void {
    switch (message.type) {
      case 'ready':
        onReady();
        break;
      case 'loaded': {
        busy(worker, -1);
        if (--worker.loading === 0) worker.onLoadsSettled?.();
        const key = message.generation;
        const waiting = this.loading.get(key);
        if (!waiting) break;
        if (message.error !== undefined) {
          this.loading.delete(key);
          waiting.reject(new SearchWorkerError(`a search worker could not load the index: ${message.error}`));
        } else if (--waiting.remaining === 0) {
          this.loading.delete(key);
          waiting.resolve();
        }
        break;
      }
      case 'result': {
        const pending = this.pending.get(message.id);
        if (!pending) break;
        this.pending.delete(message.id);
        this.waiting.done(pending.client);
        busy(worker, -1);
        worker.searching--;
        if (message.detailed) pending.resolve(message.detailed);
        else pending.reject(namedError(message.error!));
        this.dispatch();
        break;
      }
    }
  }

  private onExit(worker: PoolWorker, why: string): void {
    worker.onLoadsSettled?.();
    const at = this.workers.indexOf(worker);
    if (at < 0) return;
    for (const [id, pending] of this.pending) {
      if (pending.worker !== worker) continue;
      this.pending.delete(id);
      this.waiting.done(pending.client);
      pending.reject(new SearchWorkerError(`the search worker stopped (${why}): try the search again`));
    }
    if (this.closed) return;
    this.log(logLine({ level: 'warn', event: 'search-worker-replaced', reason: why }));
    this.workers[at] = this.spawn();
    this.dispatch();
  }

  private postLoad(worker: PoolWorker, load: LoadMessage): void {
    busy(worker, 1);
    worker.loading++;
    worker.thread.postMessage(load);
  }

  /**
   * Loads an index into every worker: returns its generation at once, and `loaded`, which
   * resolves once every worker has it (the caller loads the model meanwhile).
   */
  load(parts: SearchParts, hnsw: HnswFile, policy: SearchPolicy): { generation: number; loaded: Promise<void> } {
    const generation = this.nextGeneration++;
    const load: LoadMessage = { type: 'load', generation, parts, hnsw, policy };
    const loaded = new Promise<void>((resolve, reject) =>
      this.loading.set(generation, { remaining: this.workers.length, resolve, reject }),
    );
    loaded.catch(() => this.unload(generation));
    this.loaded.set(generation, load);
    for (const worker of this.workers) this.postLoad(worker, load);
    return { generation, loaded };
  }

  /** Drops a generation from every worker (searches already running on it finish). */
  unload(generation: number): void {
    this.loaded.delete(generation);
    for (const worker of this.workers) worker.thread.postMessage({ type: 'unload', generation } satisfies ToWorker);
  }

  /**
   * Runs one search in the least busy worker, once one has room; searches waiting for room are
   * served in turn by `options.client`. With `queryVector`, the query's embedding (made here,
   * meanwhile) is sent after the request, so the worker's lexical stage overlaps it.
   */
  search(
    generation: number,
    term: string,
    options: SearchOptions,
    queryVector?: () => Promise<Float32Array>,
  ): Promise<DetailedSearch<RankedResult>> {
    if (this.closed) return Promise.reject(new SearchWorkerError('the search pool is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push(options.client ?? '', { generation, term, options, queryVector, resolve, reject });
      this.dispatch();
    });
  }

  /** Sends waiting searches to the least busy workers with room. */
  private dispatch(): void {
    while (this.waiting.size > 0) {
      const open = this.workers.filter((w) => w.searching < SEARCHES_PER_WORKER);
      if (open.length === 0) return;
      const worker = open.reduce((best, w) => (w.searching < best.searching ? w : best));
      const job = this.waiting.shift();
      if (!job) return;
      this.send(worker, job);
    }
  }

  private send(worker: PoolWorker, job: Job): void {
    const { generation, term, options, queryVector } = job;
    const id = this.nextId++;
    this.pending.set(id, { worker, client: job.options.client ?? '', resolve: job.resolve, reject: job.reject });
    busy(worker, 1);
    worker.searching++;
    void worker.ready.then(() => {
      const prefetched = queryVector !== undefined;
      worker.thread.postMessage({ type: 'search', id, generation, term, options, prefetched } satisfies ToWorker);
      queryVector?.().then(
        (vector) => worker.thread.postMessage({ type: 'vector', id, vector } satisfies ToWorker),
        (error: unknown) =>
          worker.thread.postMessage({ type: 'vector', id, error: (error as Error).message } satisfies ToWorker),
      );
    });
  }

  /** Resolves once every worker has started (its thread, V8 heap and imports), with or without an index. */
  async started(): Promise<void> {
    // Waiting counts as work: an idle worker would not keep the process alive until it answers.
    const waiting = [...this.workers];
    for (const worker of waiting) busy(worker, 1);
    try {
      await Promise.all(waiting.map((worker) => worker.ready));
    } finally {
      for (const worker of waiting) busy(worker, -1);
    }
  }

  /** Stops every worker; searches still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.drain()) job.reject(new SearchWorkerError('the search pool is closed'));
    await Promise.all(this.workers.map((w) => loadsSettled(w).then(() => w.thread.terminate())));
  }
}

/**
 * Once the worker has answered every load sent to it: a worker stopped while hnswlib reads a graph
 * aborted the whole process ("FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw").
 */
function loadsSettled(worker: PoolWorker): Promise<void> {
  if (worker.loading === 0) return Promise.resolve();
  return new Promise((resolve) => {
    worker.onLoadsSettled = resolve;
  });
}

/** Input errors are refused before a search is sent, so what comes back is the worker's own failure. */
function namedError({ name, message }: { name: string; message: string }): Error {
  return new SearchWorkerError(`search failed in a worker (${name}: ${message})`);
}
