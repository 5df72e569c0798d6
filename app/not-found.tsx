"use client";

import Link from "next/link";

// Paths outside any locale (rare: the proxy localizes everything else).
export default function GlobalNotFound() {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "3rem", textAlign: "center" }}>
        <h1>404: Page not found</h1>
        <p>
          <Link href="/">Expo Trade home</Link>
        </p>
      </body>
    </html>
  );
}
