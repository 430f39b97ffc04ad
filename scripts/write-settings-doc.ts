// Writes the settings tables of docs/configuration.md (every setting) and of README.md (the first
// ones a user meets) from the catalogue
// (src/settings/catalogue.ts): `npm run docs:settings` after adding or changing a setting.
// test/settings/catalogue.unit.test.ts fails while either page and the catalogue differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root.js';
import { replaceSettingsTable, SETTINGS_TABLE_PAGES } from '../src/settings/table.js';

for (const [name, settings] of Object.entries(SETTINGS_TABLE_PAGES)) {
  const page = join(projectRoot(), name);
  writeFileSync(page, replaceSettingsTable(readFileSync(page, 'utf8'), settings));
  console.error(`wrote the settings table of ${page}`);
}
