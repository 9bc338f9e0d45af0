/**
 * The main script of the single executable (scripts/binary.mjs, Node's single executable
 * applications: https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html).
 * Node runs it as one CommonJS script whose `require` loads only Node's own modules, so it is the
 * whole CLI bundled with no launcher: the launcher's job, loading the bundle with the code cache
 * next to it, has no files to load here, and the executable carries its own cache
 * (`useCodeCache`).
 */
// First, as in the launcher: the CLI's modules then run with the same V8 flags as dist/cli.js.
import './startFlags.ts';
import './main.ts';
