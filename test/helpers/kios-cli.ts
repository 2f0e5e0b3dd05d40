import { inject } from "vitest";

/**
 * the `kios` CLI a test spawns (`node KIOS_ENTRY <command> …`): the bundle of today's
 * sources, kept current by the global setup. bin/kios.js would run the sources through tsx
 * in an edited checkout; which entry bin/kios.js picks is test/bin/bundle.test.ts's and
 * test/cli.test.ts's to prove.
 */
export const KIOS_ENTRY: string = inject("kiosEntry");
