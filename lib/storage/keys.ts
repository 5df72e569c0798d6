// Storage keys are generated, never derived from what the client sent, so a file name can never
// reach a path or an object key. The two-character shard keeps local directories small.
import { newId } from "@/lib/ids";

const KEY_RE = /^[0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newStorageKey(): string {
  const id = newId();
  // The last characters are random (the first ones are a timestamp), so shards fill evenly.
  return `${id.slice(-2)}/${id}`;
}

/** True only for keys of the generated form: no `..`, no extra slashes, nothing else. */
export function isStorageKey(key: string): boolean {
  return KEY_RE.test(key);
}
