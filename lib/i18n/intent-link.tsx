"use client";

import { createNavigation } from "next-intl/navigation";
import { useRouter } from "next/navigation";
import type { ComponentProps, FocusEvent, MouseEvent, TouchEvent } from "react";
import { routing } from "./routing";

const { Link: LocaleLink } = createNavigation(routing);

type Props = ComponentProps<typeof LocaleLink>;

/**
 * next-intl's Link, prefetching when a visitor reaches for it (pointer over it, keyboard focus, a touch)
 * instead of when it scrolls into view. Next prefetches every visible link, twice with its segment cache
 * (the route tree, then the segment): the home page fired 30 page requests through Next's pipeline
 * after each view, a search page one per product card, for pages that are rendered per request anyway
 * (docs/decisions.md, "Links prefetch on intent"). A caller that sets `prefetch` keeps Next's own behaviour.
 */
export function Link({ prefetch, onMouseEnter, onFocus, onTouchStart, ...props }: Props) {
  const router = useRouter();
  if (prefetch !== undefined) return <LocaleLink prefetch={prefetch} onMouseEnter={onMouseEnter} onFocus={onFocus} onTouchStart={onTouchStart} {...props} />;
  const intent = (e: MouseEvent<HTMLAnchorElement> | FocusEvent<HTMLAnchorElement> | TouchEvent<HTMLAnchorElement>) => {
    // The rendered href: already localized, and only a path of this site ("//host" is another one).
    const href = e.currentTarget.getAttribute("href");
    if (href?.startsWith("/") && !href.startsWith("//")) router.prefetch(href);
  };
  return (
    <LocaleLink
      prefetch={false}
      onMouseEnter={(e) => {
        intent(e);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        intent(e);
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        intent(e);
        onTouchStart?.(e);
      }}
      {...props}
    />
  );
}
