import { defineConfig } from "vite";

// `npm run dev` serves the client with hot reload and forwards the API and the WebSocket to
// a running `ubongo serve` (default port 8000); `npm run build` writes web/dist for the server.
const server = process.env.UBONGO_SERVER ?? "http://127.0.0.1:8000";

export default defineConfig({
  base: "/",
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
