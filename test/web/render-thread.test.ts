import { afterEach, describe, expect, it } from 'vitest';
import { RenderThread } from '../../src/web/render-thread.js';

/**
 * The search page's Markdown is rendered on a worker thread (issue 40, finding 3): the HTML is
 * the sanitised rendering, and a section whose rendering runs past the limit shows as escaped
 * plain text while the next view renders on a new worker.
 */

const threads: RenderThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});

describe('the render thread', () => {
  it('renders sections to sanitised HTML, in order', async () => {
    const thread = new RenderThread();
    threads.push(thread);
    const [a, b] = await thread.render(['# Title', 'Text <script>x()</script> and **bold**'], 'client');
    expect(a!.text).toBe('<h1>Title</h1>');
    expect(b!.text).toContain('<strong>bold</strong>');
    expect(b!.text).not.toContain('<script');
  });

  it('shows a section over the time limit as plain text, and renders the next view on a new worker', async () => {
    const thread = new RenderThread(1_000);
    threads.push(thread);
    // Seconds of parsing (mixed emphasis delimiters are super-linear): far past one second.
    const hostile = `${'*a_'.repeat(4000)}<b>`;
    const [slow] = await thread.render([hostile], 'attacker');
    expect(slow!.text).toBe(`<pre class="plain">${'*a_'.repeat(4000)}&lt;b&gt;</pre>`);
    const [next] = await thread.render(['*fine*'], 'victim');
    expect(next!.text).toBe('<p><em>fine</em></p>');
  });
});
