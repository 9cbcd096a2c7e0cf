import type { MetadataRoute } from "next";

// The web app manifest (/manifest.webmanifest): the console added to a home screen opens on its
// projects, with the mark drawn by scripts/make-icons.mjs.
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Reelbind",
    short_name: "Reelbind",
    description: "Self-hosted personalized video",
    start_url: "/projects",
    display: "standalone",
    background_color: "#f8fafc",
    theme_color: "#4f46e5",
    icons: [
      { src: "/icon.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/apple-icon.png", sizes: "180x180", type: "image/png" },
    ],
  };
}
