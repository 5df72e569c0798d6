// The process's storage backend, chosen by STORAGE. Kept on globalThis because Next loads this
// module twice (server.ts and the bundled route handlers) and both must share one backend.
import { env, type Env } from "@/lib/env";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { Storage } from "./types";

export type { ByteRange, Storage } from "./types";
export { isStorageKey, newStorageKey } from "./keys";

const KEY = Symbol.for("expo-trade.storage");
type G = typeof globalThis & { [KEY]?: Storage };

export function createStorage(e: Env): Storage {
  if (e.STORAGE === "s3") {
    return new S3Storage({
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET!,
      credentials: { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY! },
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(e.UPLOAD_DIR);
}

export function storage(): Storage {
  const g = globalThis as G;
  return (g[KEY] ??= createStorage(env()));
}
