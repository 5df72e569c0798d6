export function findPgBin(): string | null;
export function startCluster(): Promise<{ port: number; dir: string; url: (db?: string) => string; stop: () => void }>;
export function freePort(): Promise<number>;
