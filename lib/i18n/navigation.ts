import { localeNavigation } from "./locale-navigation";

export const { redirect, usePathname, useRouter, getPathname } = localeNavigation;
// Every link of the site prefetches on intent, not on sight (./intent-link.tsx).
export { Link } from "./intent-link";
