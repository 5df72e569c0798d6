// Read helpers for public pages: a missing record becomes the page's 404, never an error page.
import { ApiError } from "@/lib/errors";

export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
