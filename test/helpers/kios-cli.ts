import { inject } from "vitest";

/**
 * the `kios` binary a test spawns, only where the binary is what is proved (its exit codes
 * and pipes, signals, `kios start`); every other CLI test runs the command in-process
 * (test/helpers/run-cli.ts). The entry spawned (`node KIOS_ENTRY <command> …`) is the
 * bundle of today's sources, kept current by the global setup. bin/kios.js would run the sources through tsx
 * in an edited checkout; which entry bin/kios.js picks is test/bin/bundle.test.ts's and
 * test/cli.test.ts's to prove.
 */
export const KIOS_ENTRY: string = inject("kiosEntry");
