// Writes docs/compatibility.md from the compatibility table (fn/mutators/compatibility.ts).
// Run: npm run docs:compat
import { writeFileSync } from 'node:fs';
import { compatibilityMarkdown } from '../fn/compat/markdown.ts';
import { COMPATIBILITY } from '../fn/mutators/compatibility.ts';

writeFileSync(
  new URL('../docs/compatibility.md', import.meta.url),
  compatibilityMarkdown(COMPATIBILITY),
);
