// Opening the embedded store (PGlite on the Node file system) as safely as PGlite can be run.
//
// What PGlite 0.5.16 does on its own: every write() of the WASM PostgreSQL goes straight to the
// real file (Emscripten's NODEFS calls fs.writeSync, no buffering of its own), and a commit writes
// its WAL before it returns. So a killed process loses nothing it acknowledged: the next open
// replays the WAL. But PGlite starts PostgreSQL with `-F` (fsync off), and NODEFS has no fsync:
// an fsync() from PostgreSQL is a no-op, so the operating system may keep acknowledged commits in
// its page cache for seconds, and a power loss or OS crash loses them.
//
// What this module adds:
// - fsync on: PostgreSQL's fsync() reaches the disk (NODEFS gets a real fsync, `-F` is dropped
//   and the WAL is synced with fsync(), the call NODEFS can route), so a commit returns only
//   once its WAL is on disk, and checkpoints sync the data files before the WAL is recycled.
//   PGLITE_FSYNC=0 turns it off (killed process still safe, power loss not).
// - creation is all or nothing: a store whose creation was interrupted (`<dir>.creating` still
//   there) held no data yet and is created again; the new store is synced to disk before use.
// - a store that does not open is never replaced: start-up stops with a message naming the
//   directory, PostgreSQL's own reason and what to do.
import { closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

export class DatabaseOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseOpenError";
  }
}

export type PgliteStoreOptions = {
  /** PostgreSQL's fsync reaches the disk (default). Off: safe against a killed process only. */
  fsync: boolean;
  log?: (line: string) => void;
};

/** Marker beside the directory while a new store is being created. */
export const creatingMarker = (dir: string) => `${dir}.creating`;

/** Open (or create) the store in `dir`. The caller holds the directory lock. */
export async function openPgliteStore(dir: string, opts: PgliteStoreOptions): Promise<PGlite> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const marker = creatingMarker(dir);
  const hasStore = existsSync(path.join(dir, "PG_VERSION"));
  if (existsSync(marker)) {
    // Killed while creating: nothing was ever stored in it (start-up had not finished), so it is
    // created again rather than opened half-written.
    log(`The embedded database in ${dir} was being created when the process stopped; creating it again.`);
    rmSync(dir, { recursive: true, force: true });
  } else if (hasStore) {
    return startPglite(dir, opts, log);
  } else if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new DatabaseOpenError(
      `${dir} is not empty but holds no database (no PG_VERSION file). It was left untouched. ` +
        `Point PGLITE_DIR (or DATA_DIR) at an empty or missing directory, or restore the database directory from a backup.`,
    );
  }

  mkdirSync(path.dirname(dir), { recursive: true });
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  if (opts.fsync) syncPath(marker, false);
  if (opts.fsync) syncPath(path.dirname(dir), true);
  const client = await startPglite(dir, opts, log);
  try {
    // initdb ran in memory and was copied in without fsync: put the whole new store on disk
    // before the marker goes, so a power loss cannot leave a store that looks complete.
    if (opts.fsync) syncTree(dir);
    rmSync(marker);
    if (opts.fsync) syncPath(path.dirname(dir), true);
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  return client;
}

async function startPglite(dir: string, opts: PgliteStoreOptions, log: (line: string) => void): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { NodeFS } = await import("@electric-sql/pglite/nodefs");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const messages: string[] = [];
  const onOutput = (text: string) => {
    messages.push(text);
    if (messages.length > 200) messages.shift();
    return false;
  };
  const durable = opts.fsync;
  let syncs = 0;
  class DurableNodeFS extends NodeFS {
    override async init(pg: PGlite, emscriptenOpts: Parameters<InstanceType<typeof NodeFS>["init"]>[1]) {
      const result = await super.init(pg, emscriptenOpts);
      const preRun = result.emscriptenOpts.preRun;
      const patch = (mod: EmscriptenModule) => {
        // Emscripten's NODEFS defines no fsync: fsync() would return success having done nothing.
        mod.NODEFS.stream_ops.fsync = (stream: { nfd: number; node: { mode: number } }) =>
          mod.NODEFS.tryFSOperation(() => {
            if (mod.FS.isDir(stream.node.mode)) fsyncSync(stream.nfd);
            else fdatasyncSync(stream.nfd);
            syncs++;
            return 0;
          });
      };
      result.emscriptenOpts.preRun = [...(Array.isArray(preRun) ? preRun : preRun ? [preRun] : []), patch as never];
      return result;
    }
  }
  const startParams = durable
    ? // Without -F, and with the WAL synced by fsync(): PGlite's fdatasync() never reaches the file system.
      [...PGlite.defaultStartParams.filter((p) => p !== "-F"), "-c", "wal_sync_method=fsync"]
    : PGlite.defaultStartParams;
  let client: PGlite;
  try {
    client = await PGlite.create({
      fs: durable ? new DurableNodeFS(dir) : new NodeFS(dir),
      extensions: { pg_trgm },
      startParams,
      onStderr: onOutput,
      onStdout: onOutput,
    });
  } catch (err) {
    const said = messages.filter((m) => /\b(PANIC|FATAL|ERROR):/.test(m)).map((m) => m.replace(/^.*?\b(PANIC|FATAL|ERROR):\s*/, "$1: "));
    throw new DatabaseOpenError(
      `The embedded database in ${dir} could not be opened` +
        (said.length ? ` (PostgreSQL: ${said.slice(-3).join("; ")})` : ` (${(err as Error).message})`) +
        `. Nothing was changed and the server did not start on an empty database. ` +
        `Restore ${dir} from a backup, or move it aside to start with a new, empty database ` +
        `(or set DATABASE_URL to use PostgreSQL).`,
      { cause: err },
    );
  }
  if (durable) await assertCommitsSync(client, dir, () => syncs);
  if (messages.some((m) => /automatic recovery in progress|redo done/.test(m))) {
    log(`The embedded database in ${dir} was not shut down cleanly; PostgreSQL replayed its write-ahead log.`);
  }
  return client;
}

/**
 * A commit must reach the fsync above. The hook relies on PGlite internals (Emscripten's NODEFS):
 * should an upgrade route fsync elsewhere, start-up stops instead of running without it unnoticed.
 */
async function assertCommitsSync(client: PGlite, dir: string, syncs: () => number): Promise<void> {
  const before = syncs();
  // A transactional WAL record (no table touched): its commit flushes the WAL.
  await client.query("select pg_logical_emit_message(true, 'expo-trade', 'fsync check')");
  if (syncs() > before) return;
  await client.close().catch(() => {});
  throw new DatabaseOpenError(
    `The embedded database in ${dir} opened, but its commits do not reach the disk's fsync (this PGlite version routes file syncs differently). ` +
      `Set PGLITE_FSYNC=0 to run without (safe against a killed process, not against a power loss), or use PostgreSQL (DATABASE_URL).`,
  );
}

/** The parts of the Emscripten module this file uses. */
type EmscriptenModule = {
  FS: { isDir: (mode: number) => boolean };
  NODEFS: { stream_ops: Record<string, unknown>; tryFSOperation: <T>(f: () => T) => T };
};

function syncPath(p: string, dir: boolean): void {
  const fd = openSync(p, "r");
  try {
    if (dir) fsyncSync(fd);
    else fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync every file and directory under `root` (children first). */
export function syncTree(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, entry.name);
    if (entry.isDirectory()) syncTree(p);
    else if (entry.isFile()) syncPath(p, false);
  }
  syncPath(root, true);
}
