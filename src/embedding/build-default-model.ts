import { ensureDefaultModel } from './default-model.js';

/** `npx tsx src/embedding/build-default-model.ts`: builds the default model if needed, prints its folder. */
ensureDefaultModel({ log: (line) => console.error(line) }).then(
  (dir) => console.log(dir),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
