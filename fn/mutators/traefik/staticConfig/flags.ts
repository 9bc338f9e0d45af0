/**
 * Traefik's command-line flags as its parser reads them (paerser flag/flagparser.go@v0.2.0
 * `parseOne`, `setValue`): `-name=value`, `--name=value`, or `--name value`; names are matched
 * case-insensitively; for a non-list setting the last occurrence wins; parsing stops at `--` or at
 * the first argument that is not a flag.
 */

/** One flag: where it is in the list, its name as written, its lowercased key, its value. */
export interface Flag {
  /** Index in the container's `args` of the argument holding the name. */
  readonly index: number;
  /** The name as written, without dashes (`entryPoints.web.address`). */
  readonly name: string;
  /** The name lowercased, as Traefik matches it. */
  readonly key: string;
  /** The value; undefined for a bare boolean flag (`--ping`). */
  readonly value: string | undefined;
  /** Where the value is: in the same argument after `=`, or the next argument. */
  readonly valueIndex: number | undefined;
}

/**
 * Lowercased keys whose value is never a boolean: after a bare name Traefik takes the next
 * argument as the value whatever it looks like. For any other bare name the next argument is its
 * value unless it starts with `-`: Traefik takes it for a non-boolean setting (`--log.level INFO`),
 * and after a boolean (`--ping`, `--api.insecure`) the next argument is the next flag.
 */
function takesValue(key: string): boolean {
  return (
    new RegExp(
      String.raw`^entrypoints\.[^.]+\.` +
        String.raw`(address|transport\.lifecycle\.(requestacceptgracetimeout|gracetimeout))$`,
    ).test(key) || key === 'configfile'
  );
}

/**
 * Returns the flags of a Traefik command line (the container's `args`; a leading `traefik`, the
 * image's binary, is skipped the way the image's entrypoint script passes it on).
 */
export function parseFlags(args: readonly unknown[]): Flag[] {
  const flags: Flag[] = [];
  let i = 0;
  const first = args[0];
  if (typeof first === 'string' && (first === 'traefik' || first.endsWith('/traefik'))) i = 1;
  while (i < args.length) {
    const arg = args[i];
    if (typeof arg !== 'string' || arg.length < 2 || !arg.startsWith('-') || arg === '--') break;
    const body = arg.startsWith('--') ? arg.slice(2) : arg.slice(1);
    const eq = body.indexOf('=', 1);
    if (eq > 0) {
      const name = body.slice(0, eq);
      flags.push({
        index: i,
        name,
        key: name.toLowerCase(),
        value: body.slice(eq + 1),
        valueIndex: i,
      });
      i += 1;
      continue;
    }
    const key = body.toLowerCase();
    const next = args[i + 1];
    if (typeof next === 'string' && (takesValue(key) || !next.startsWith('-'))) {
      flags.push({ index: i, name: body, key, value: next, valueIndex: i + 1 });
      i += 2;
      continue;
    }
    flags.push({ index: i, name: body, key, value: undefined, valueIndex: undefined });
    i += 1;
  }
  return flags;
}

/** Returns the last flag with this lowercased key (the one Traefik keeps), or undefined. */
export function lastFlag(flags: readonly Flag[], key: string): Flag | undefined {
  let found: Flag | undefined;
  for (const flag of flags) if (flag.key === key) found = flag;
  return found;
}
