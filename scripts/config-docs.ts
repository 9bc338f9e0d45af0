// Writes docs/config.schema.json and docs/configuration.md from the config's schema
// (fn/config/reference.ts). Run: npm run docs:config
import { writeFileSync } from 'node:fs';
import { configJsonSchema, configReferenceMarkdown } from '../fn/config/reference.ts';

writeFileSync(
  new URL('../docs/config.schema.json', import.meta.url),
  `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
);
writeFileSync(new URL('../docs/configuration.md', import.meta.url), configReferenceMarkdown());
