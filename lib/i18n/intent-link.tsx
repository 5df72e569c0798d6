"use client";

import { useRouter } from "next/navigation";
import type { ComponentProps, SyntheticEvent } from "react";
import { localeNavigation } from "./locale-navigation";

const LocaleLink = localeNavigation.Link;

/**
 * next-intl's Link, prefetching when a visitor reaches for it (pointer over it, keyboard focus, a touch)
 * instead of when it scrolls into view. Next prefetches every visible link, twice with its segment cache
 * (the route tree, then the segment): the home page fired 30 page requests through Next's pipeline
 * after each view, a search page one per product card, for pages that are rendered per request anyway
 * (docs/decisions.md, "Links prefetch on intent").
 */
export function Link({ onMouseEnter, onFocus, onTouchStart, ...props }: ComponentProps<typeof LocaleLink>) {
  const router = useRouter();
  // The rendered href: already localized, and only a path of this site ("//host" is another one). Next keeps
  // what it prefetched, so reaching for a link again fetches nothing more.
  const intent =
    <E extends SyntheticEvent<HTMLAnchorElement>>(own?: (e: E) => void) =>
    (e: E) => {
      const href = e.currentTarget.getAttribute("href");
      if (href?.startsWith("/") && !href.startsWith("//")) router.prefetch(href);
      own?.(e);
    };
  return <LocaleLink prefetch={false} onMouseEnter={intent(onMouseEnter)} onFocus={intent(onFocus)} onTouchStart={intent(onTouchStart)} {...props} />;
}
