export function findNginx(): string | null;
export function siteConfig(opts: { port: number; upstreams: string[]; serverExtra?: string }): string;
export function startNginx(opts: { port: number; upstreams: string[]; serverExtra?: string }): Promise<{
  url: string;
  dir: string;
  pid: number | undefined;
  log: () => string;
  accessLog: () => string;
  stop: () => Promise<void>;
}>;
