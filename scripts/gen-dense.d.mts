// Types of scripts/gen-dense.mjs, for the tests that generate dense streams with it.
export declare const WORKLOAD_KINDS: readonly string[];
export declare function denseStream(copies: number): string;
export declare function writeKustomization(dir: string, copies: number): void;
export declare function denseCopy(index: number): string;
