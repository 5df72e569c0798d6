// PGlite has no lock of its own: two processes on one directory silently lose committed rows.
// We hold `<dir>.lock` (exclusive create, our pid inside) for as long as the database is open.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

export type DirectoryLock = { file: string; release: () => void };

export class DatabaseLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already in use by another process (pid ${pid}). ` +
        `Stop that process first, or point PGLITE_DIR (or DATA_DIR) at another directory, ` +
        `or set DATABASE_URL to use PostgreSQL, which many processes can share.`,
    );
    this.name = "DatabaseLockedError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquireDirectoryLock(dir: string): DirectoryLock {
  const file = `${dir}.lock`;
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return { file, release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let holder: { pid?: number; host?: string } = {};
      try {
        holder = JSON.parse(readFileSync(file, "utf8")) as typeof holder;
      } catch {
        // unreadable or half-written lock: treat as stale
      }
      const pid = Number(holder.pid);
      const sameHost = !holder.host || holder.host === hostname();
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && (!sameHost || alive(pid))) {
        throw new DatabaseLockedError(dir, pid);
      }
      // Stale lock (the process that held it is gone, e.g. after kill -9): take it over.
      try {
        unlinkSync(file);
      } catch {
        // another process may have removed it first; retry the exclusive create
      }
    }
  }
  throw new Error(`Could not acquire the database lock ${file}`);
}
