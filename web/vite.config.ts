import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// `npm run dev` serves the client with hot reload and forwards the API and the WebSocket to
// a running `ubongo serve` (default port 8000); `npm run build` writes web/dist for the server.
const server = process.env.UBONGO_SERVER ?? "http://127.0.0.1:8000";

// The installable app (issue 14): a web app manifest and a Workbox service worker that keeps
// the built files (precache: the page loads with no network) and the practice bundle
// (GET /api/practice-bundle, network first: fresh online, kept for offline). No other /api
// answer is cached and /ws is never touched (a service worker sees no WebSocket anyway);
// navigations under /api, /ws, /metrics and the API docs go to the server, never to the
// cached index.html. A new build's worker waits until the page says so (src/offline/pwa.ts:
// at once outside a room, on "Reload" in one), so a running game never changes under a
// player's hands.
const pwa = VitePWA({
  registerType: "prompt",
  injectRegister: false, // src/offline/pwa.ts registers it (virtual:pwa-register)
  includeAssets: ["icons/icon.svg", "icons/apple-touch-icon.png"],
  manifest: {
    id: "/",
    name: "Ubongo",
    short_name: "Ubongo",
    description: "The Ubongo puzzle race: play with friends online, or practise offline.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: "#e9eef2",
    theme_color: "#1f3b4d",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      { src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
    ],
  },
  workbox: {
    globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
    // three.js is about 560 kB: kept too, so that 3D practice works offline
    maximumFileSizeToCacheInBytes: 1_500_000,
    navigateFallback: "/index.html",
    navigateFallbackDenylist: [/^\/api\//, /^\/ws/, /^\/metrics/, /^\/docs/, /^\/redoc/, /^\/openapi\.json/],
    cleanupOutdatedCaches: true,
    // the first worker takes the open page at once (so the bundle fetched next is kept);
    // later ones wait for "Reload" (skipWaiting stays off)
    clientsClaim: true,
    runtimeCaching: [
      {
        urlPattern: ({ url }) => url.pathname === "/api/practice-bundle",
        handler: "NetworkFirst",
        options: {
          cacheName: "ubongo-practice",
          networkTimeoutSeconds: 4,
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 1 },
        },
      },
    ],
  },
});

export default defineConfig({
  base: "/",
  plugins: [pwa],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // no source maps in the build the server ships (production); UBONGO_WEB_SOURCEMAP=1 makes
    // them, and `ubongo serve --dev` serves them (docs/server.md, "Security")
    sourcemap: process.env.UBONGO_WEB_SOURCEMAP === "1",
    rollupOptions: {
      output: {
        // three.js in a chunk of its own, apart from the 3D board's scene code (board3d/scene.ts):
        // both are fetched only when the first 3D board is built (a dynamic import), and a change
        // to the scene leaves the big three.js file's name, and so the browser's cached copy, alone.
        manualChunks(id) {
          return id.includes("/node_modules/three/") ? "three" : undefined;
        },
      },
    },
    // Vite warns above 500 kB; three.js alone is about 558 kB minified (138 kB gzipped, as
    // `npm run build` prints), and no part of it can go: the renderer is one piece. It is loaded
    // only when a 3D game starts, never by the other editions' pages, so the limit is set just
    // above it: any other chunk growing that big, or three.js growing much, still warns.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      "/api": server,
      "/ws": { target: server.replace(/^http/, "ws"), ws: true },
    },
  },
});
