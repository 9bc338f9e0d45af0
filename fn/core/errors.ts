/**
 * Errors are values with a code, a place and a hint; only the entry point turns them into an
 * exit code (fn/cli/outcome.ts; after eemeli/yaml's src/errors.ts).
 */
import { printable, printableLines } from './printable.ts';

/** What went wrong, as a stable code that tests and scripts can match. */
export type ErrorCode =
  | 'E_PARSE' // malformed YAML
  | 'E_NOT_MAPPING' // a document that is a scalar or a list
  | 'E_DUPLICATE_KEY'
  | 'E_ALIAS_BOMB'
  | 'E_TOO_DEEP'
  | 'E_INPUT' // readable YAML that is not a usable stream (e.g. a ResourceList without items)
  | 'E_CONFIG'
  | 'E_USAGE'
  | 'E_INTERNAL';

/**
 * Where an error is: the document's position in the stream, its line and column, its resource;
 * or, when the input was named files, the file and the line and column within it.
 */
export interface ErrorPlace {
  /** The file the user named; `line` and `column` are then within it, and `document` is unset. */
  readonly file?: string;
  /** 1-based position of the document in the stream (or of the item in a ResourceList). */
  readonly document?: number;
  /** 1-based line and column in the input. */
  readonly line?: number;
  readonly column?: number;
  /** `Kind namespace/name`, where known. */
  readonly resource?: string;
  /** The config field or file that is wrong. */
  readonly field?: string;
}

/** An error kube-graceful reports to the user; `hint` says how to fix it. */
export class KubeGracefulError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly place: ErrorPlace = {},
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'KubeGracefulError';
  }

  /** Returns the exit code this error ends the program with (2: usage, config or input). */
  get exitCode(): number {
    return this.code === 'E_INTERNAL' ? 70 : 2;
  }
}

/** Returns the one-paragraph message printed on stderr for an error. */
export function formatError(error: KubeGracefulError): string {
  const where: string[] = [];
  const { file, document, line, column, resource, field } = error.place;
  // The resource and the field are the input's names: one line each, control characters as
  // escapes. The message and the hint are ours, with names in them: their lines stay (the YAML
  // library's code frame under a parse error), nothing else of the input drives the terminal.
  if (file !== undefined) {
    // `file:line:column`, as compilers write it, so editors and terminals jump there.
    const at = line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`;
    where.push(`${printable(file)}${at}${resource ? ` (${printable(resource)})` : ''}`);
  } else {
    if (document !== undefined)
      where.push(`document ${document}${resource ? ` (${printable(resource)})` : ''}`);
    else if (resource) where.push(printable(resource));
    if (line !== undefined)
      where.push(`line ${line}${column !== undefined ? `, column ${column}` : ''}`);
  }
  if (field) where.push(printable(field));
  const place = where.length ? `${where.join(', ')}: ` : '';
  const head = `kube-graceful: ${error.code}: ${place}${printableLines(error.message)}`;
  return error.hint ? `${head}\n  how to fix: ${printableLines(error.hint)}` : head;
}
