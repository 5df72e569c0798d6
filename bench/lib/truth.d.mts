// Types for truth.mjs.
export declare function truthWhere(q: string, from?: number): { where: string; params: string[] };
