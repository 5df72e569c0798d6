import { createNavigation } from "next-intl/navigation";
import { routing } from "./routing";

export const { redirect, usePathname, useRouter, getPathname } = createNavigation(routing);
// Every link of the site prefetches on intent, not on sight (./intent-link.tsx).
export { Link } from "./intent-link";
