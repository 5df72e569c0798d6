import type { MetadataRoute } from "next";

// The web app manifest (/manifest.webmanifest): the name and icons a phone shows when the site is
// added to its home screen. English names: a manifest has no per-locale variant.
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Expo Trade",
    short_name: "Expo Trade",
    description: "B2B exhibition and trade marketplace",
    start_url: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#1e40af",
    icons: [
      { src: "/icon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
