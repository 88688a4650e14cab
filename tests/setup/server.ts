import { vi } from "vitest";

// The server project shares one module registry per worker (vite.config.ts, isolate: false):
// Fastify, Drizzle, zod, PGlite and the PostgreSQL driver load once per worker instead of once per
// file. Each file still starts with fresh modules of the server's own code, so module state (the
// live events' bus, rate limits, caches, a file's vi.mock) never carries over from the file before.
vi.resetModules();
