import { parentPort } from 'node:worker_threads';
import { markdownToHtml } from './markdown-html.js';

/**
 * Worker thread entry: renders the Markdown of one page view's sections to sanitised HTML
 * (markdown-html.ts), off the server's main thread (render-thread.ts).
 */

export interface RenderRequest {
  id: number;
  texts: string[];
}

// Loaded (the parser too): the first message says so, and a view's time limit starts after it.
markdownToHtml().then(
  () => parentPort?.postMessage({ ready: true }),
  (error: unknown) => parentPort?.postMessage({ ready: false, error: String(error) }),
);

parentPort?.on('message', async ({ id, texts }: RenderRequest) => {
  try {
    const render = await markdownToHtml();
    parentPort!.postMessage({ id, html: texts.map((text) => render(text).text) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
