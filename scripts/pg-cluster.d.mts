export function findPgBin(): string | null;
export function startCluster(options?: {
  settings?: Record<string, string>;
}): Promise<{ port: number; dir: string; url: (db?: string) => string; stop: () => void }>;
export function freePort(): Promise<number>;
