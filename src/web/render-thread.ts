import { Worker } from 'node:worker_threads';
import { FairQueue } from '../http/fair-queue.js';
import { workerEntry } from '../worker-entry.js';
import { type Html, html, trustedHtml } from './html.js';
import type { RenderRequest } from './render-worker.js';

/**
 * The search page's Markdown rendering, on one worker thread: the main thread never parses a
 * section. Markdown parsing is super-linear on hostile input (24 KB of mixed emphasis: 12 s;
 * 1,000 nested list items: 3.7 s), so each page view's rendering has RENDER_LIMIT_MS: past it the
 * worker is ended (and replaced for the next view) and that view shows its sections as plain
 * text. Views wait in turn by client (src/http/fair-queue.ts), so one client's hostile pages delay
 * another's by at most one render.
 */

/** A page view's rendering at most, in ms of wall time (a section's typical render takes 1–5 ms). */
export const RENDER_LIMIT_MS = 2_000;

interface Job {
  texts: string[];
  resolve(rendered: Html[]): void;
}

/** What a section shows when it could not be rendered in time: its text, escaped. */
function plain(text: string): Html {
  return html`<pre class="plain">${text}</pre>`;
}

/** The worker's answer to one request, or undefined when it stopped or ran past `limitMs`; its listeners removed either way. */
function answerOf(thread: Worker, request: RenderRequest, limitMs: number): Promise<{ html?: string[] } | undefined> {
  return new Promise((resolve) => {
    const done = (value: { html?: string[] } | undefined) => {
      clearTimeout(timer);
      thread.off('message', onMessage).off('error', stopped).off('exit', stopped);
      resolve(value);
    };
    const stopped = () => done(undefined);
    const timer = setTimeout(stopped, limitMs);
    const onMessage = (reply: { id: number; html?: string[] }) => reply.id === request.id && done(reply);
    thread.on('message', onMessage).on('error', stopped).on('exit', stopped);
    thread.postMessage(request);
  });
}

export class RenderThread {
  private worker: { thread: Worker; ready: Promise<void> } | undefined;
  private readonly waiting = new FairQueue<Job>();
  private running = false;
  private nextId = 0;

  constructor(private readonly limitMs = RENDER_LIMIT_MS) {}

  /** The sections' HTML, in order; plain text for each when the rendering failed or ran out of time. */
  render(texts: string[], client: string): Promise<Html[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      this.waiting.push(client, { texts, resolve });
      this.next();
    });
  }

  async close(): Promise<void> {
    for (const job of this.waiting.drain()) job.resolve(job.texts.map(plain));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.thread.terminate();
  }

  private next(): void {
    if (this.running) return;
    const job = this.waiting.shift();
    if (job === undefined) return;
    this.running = true;
    void this.run(job).then((rendered) => {
      job.resolve(rendered);
      this.running = false;
      this.next();
    });
  }

  private async run(job: Job): Promise<Html[]> {
    const worker = this.start();
    const id = this.nextId++;
    worker.thread.ref();
    try {
      await worker.ready;
      const answer = await answerOf(worker.thread, { id, texts: job.texts }, this.limitMs);
      if (answer?.html !== undefined) return answer.html.map(trustedHtml);
    } catch {
      // The worker could not load: plain text, and a new worker for the next view.
    } finally {
      worker.thread.unref();
    }
    this.discard(worker.thread);
    return job.texts.map(plain);
  }

  private start(): { thread: Worker; ready: Promise<void> } {
    if (this.worker === undefined) {
      const { url, execArgv } = workerEntry('render-worker', import.meta.url);
      const thread = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: 256 } });
      thread.unref();
      // An error while idle (its heap limit) must not go unhandled: the next view gets a new worker.
      thread.on('error', () => this.discard(thread));
      const ready = new Promise<void>((resolve, reject) => {
        thread.once('message', (message: { ready?: boolean }) => (message.ready ? resolve() : reject()));
        thread.once('error', reject);
      });
      ready.catch(() => this.discard(thread));
      this.worker = { thread, ready };
    }
    return this.worker;
  }

  private discard(thread: Worker): void {
    if (this.worker?.thread === thread) this.worker = undefined;
    void thread.terminate();
  }
}
