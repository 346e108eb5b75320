import { defineConfig } from "vite";

// `npm run dev` serves the client with hot reload and forwards the API and the WebSocket to
// a running `ubongo serve` (default port 8000); `npm run build` writes web/dist for the server.
const server = process.env.UBONGO_SERVER ?? "http://127.0.0.1:8000";

export default defineConfig({
  base: "/",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: true },
  server: {
    proxy: {
      "/api": server,
      "/ws": { target: server.replace(/^http/, "ws"), ws: true },
    },
  },
});
