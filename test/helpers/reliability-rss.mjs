// Runs the bundled CLI in this process and, when it exits, writes its peak resident memory (KiB)
// and CPU time to file descriptor 3, so a test can assert bounded memory (issue #8).
// Usage: node reliability-rss.mjs /path/to/dist/cli.js [cli args…]
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const cli = process.argv[2];
process.argv.splice(1, 2, cli); // the CLI sees `node cli.js args…`, as when run directly
process.on('exit', () => {
  const usage = process.resourceUsage();
  try {
    writeSync(
      3,
      JSON.stringify({
        maxRssKiB: usage.maxRSS,
        userMs: usage.userCPUTime / 1000,
        systemMs: usage.systemCPUTime / 1000,
      }),
    );
  } catch {
    // no fd 3: run by hand
  }
});
await import(pathToFileURL(cli).href);
