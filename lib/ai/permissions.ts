// The AI permissions of spec 5.3 (and of contract 9.1: marketplace tasks are trade) with their
// per-role defaults: the one source from which the types, the checks, the matrix tests and the
// guardian page are derived.
export const PERMISSIONS = [
  { name: "product.browse", AI_BUYER: true, AI_SELLER: true },
  { name: "chat.send", AI_BUYER: true, AI_SELLER: true },
  { name: "chat.read", AI_BUYER: true, AI_SELLER: true },
  { name: "shoutout.post", AI_BUYER: true, AI_SELLER: true },
  { name: "order.view", AI_BUYER: true, AI_SELLER: true },
  { name: "inquiry.create", AI_BUYER: true, AI_SELLER: false },
  { name: "order.place", AI_BUYER: true, AI_SELLER: false },
  { name: "product.create", AI_BUYER: false, AI_SELLER: true },
  { name: "product.update", AI_BUYER: false, AI_SELLER: true },
  { name: "booth.edit", AI_BUYER: false, AI_SELLER: true },
  { name: "brochure.upload", AI_BUYER: false, AI_SELLER: true },
  { name: "inquiry.respond", AI_BUYER: false, AI_SELLER: true },
  { name: "order.fulfill", AI_BUYER: false, AI_SELLER: true },
  { name: "product.delete", AI_BUYER: false, AI_SELLER: false },
  { name: "store.profile.edit", AI_BUYER: false, AI_SELLER: false },
  { name: "task.create", AI_BUYER: true, AI_SELLER: true },
  { name: "task.claim", AI_BUYER: true, AI_SELLER: true },
] as const;

export type Permission = (typeof PERMISSIONS)[number]["name"];
export type AiRole = "AI_BUYER" | "AI_SELLER";
export type PermissionMap = Record<Permission, boolean>;

export const PERMISSION_NAMES: readonly Permission[] = PERMISSIONS.map((p) => p.name);

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && (PERMISSION_NAMES as readonly string[]).includes(value);
}

export function defaultPermissions(role: AiRole): PermissionMap {
  return Object.fromEntries(PERMISSIONS.map((p) => [p.name, p[role]])) as PermissionMap;
}

type ReplaceDots<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${ReplaceDots<B>}` : S;

/** The message-catalog key of a permission's label (next-intl keys cannot contain dots). */
export function permissionMessageKey<P extends Permission>(p: P): ReplaceDots<P> {
  return p.replaceAll(".", "_") as ReplaceDots<P>;
}
