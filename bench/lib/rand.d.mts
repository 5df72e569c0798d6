// Types for rand.mjs (the plain-JS load scripts share it with the TypeScript generator).
export declare const SEED: number;
export type Rng = () => number;
export declare function rng(seed?: number): Rng;
export declare function int(r: Rng, lo: number, hi: number): number;
export declare function pick<T>(r: Rng, list: readonly T[]): T;
export declare function zipf(n: number, s?: number): (r: Rng) => number;
export declare const LANGUAGES: readonly string[];
export declare const CJK_LANGUAGES: readonly string[];
export declare function loadWords(): Record<string, string[]>;
export declare function isCjkText(s: string): boolean;
export declare function pairSet(n: number, count: number, seed?: number): [number, number][];
