// Recognize PostgreSQL errors the same way on both drivers.
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown; message?: string };
  if (!e) return false;
  if (e.code === "23505") return !constraint || e.constraint_name === constraint || e.constraint === constraint || (e.message ?? "").includes(constraint);
  return e.cause ? isUniqueViolation(e.cause, constraint) : false;
}
