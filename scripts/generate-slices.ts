// Writes fn/config/slices.ts from the registry (scripts/slices-module.ts).
// Run: npm run generate:slices
import { writeFileSync } from 'node:fs';
import { slicesModuleText } from './slices-module.ts';

writeFileSync(new URL('../fn/config/slices.ts', import.meta.url), await slicesModuleText());
