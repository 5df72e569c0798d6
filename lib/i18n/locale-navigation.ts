// next-intl's navigation for the site's locales, made once. Import from ./navigation: its Link prefetches on intent.
import { createNavigation } from "next-intl/navigation";
import { routing } from "./routing";

export const localeNavigation = createNavigation(routing);
