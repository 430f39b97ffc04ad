import type { SearchEngine } from '../../src/search/types.js';

/** `engine` with its searches held until release(): requests that stay pending, as unread or slow ones do. */
export function heldEngine(engine: () => SearchEngine): { engine: SearchEngine; release(): void; waiting(): number } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  return {
    engine: {
      summary: () => engine().summary(),
      search: async (term, options) => {
        waiting++;
        await gate;
        return engine().search(term, options);
      },
    },
    release: () => open(),
    waiting: () => waiting,
  };
}
