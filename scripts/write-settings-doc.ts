// Writes the settings table of docs/configuration.md from the catalogue (src/settings/catalogue.ts):
// `npm run docs:settings` after adding or changing a setting. test/settings/catalogue.unit.test.ts
// fails while the page and the catalogue differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root.js';
import { replaceSettingsTable } from '../src/settings/table.js';

const page = join(projectRoot(), 'docs', 'configuration.md');
writeFileSync(page, replaceSettingsTable(readFileSync(page, 'utf8')));
console.error(`wrote the settings table of ${page}`);
