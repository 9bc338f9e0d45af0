// Writes docs/compatibility.md from the compatibility table (fn/compat/table.ts).
// Run: npm run docs:compat
import { writeFileSync } from 'node:fs';
import { compatibilityMarkdown } from '../fn/compat/markdown.ts';

writeFileSync(new URL('../docs/compatibility.md', import.meta.url), compatibilityMarkdown());
