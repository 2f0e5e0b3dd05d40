import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium } from "playwright-core";

// A Chromium driven by playwright-core (playwright's own browser download does not work
// here). Which one:
//   - CHROMIUM_PATH set: that file if it exists, else the npm one below (never Debian's,
//     so CHROMIUM_PATH=/nonexistent proves the npm fallback even where Debian's is
//     installed: CI does that);
//   - CHROMIUM_PATH unset: Debian's /usr/bin/chromium if it exists, else the npm one;
//   - the npm one: the headless Chromium shipped inside the package @sparticuz/chromium (a
//     devDependency), so `npm install && npm test` needs nothing but Node.
// launchBrowser() logs which one it used ("browser: ...").

export const SCREENSHOTS = "test-results";
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const NPM_CHROMIUM = "@sparticuz/chromium";

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// flags of @sparticuz/chromium's `args` that are for AWS Lambda, not for a test: they would
// weaken the page's security (CSP, same-origin) or run everything in one process, which
// is fragile with several browser contexts. Its own headless flag is quoted for a shell.
const NPM_ARGS_DROPPED = [
  "--single-process",
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--disable-site-isolation-trials",
  "--headless='shell'",
];

const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** the installed Chromium the tests use, or undefined to fall back to the npm one */
function installedChromium(): string | undefined {
  const wanted = process.env.CHROMIUM_PATH;
  if (wanted) return existsSync(wanted) ? wanted : undefined;
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

/** the entry file of @sparticuz/chromium, or undefined when it is not installed */
function npmChromiumEntry(): string | undefined {
  try {
    return require.resolve(NPM_CHROMIUM);
  } catch {
    return undefined;
  }
}

/** why no browser can run, or undefined; a missing browser fails tests, never skips them */
export function browserMissing(): string | undefined {
  if (installedChromium() || npmChromiumEntry()) return undefined;
  return (
    `no Chromium: ${process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH}` : DEBIAN_CHROMIUM} ` +
    `is missing, and so is the npm package ${NPM_CHROMIUM}. ` +
    "Run `npm install` (it brings the browser as a devDependency)."
  );
}

interface NpmChromium {
  executablePath: string;
  /** shared libraries the binary needs besides glibc (NSS, expat), from the package */
  libDir: string;
  /** fontconfig file: the system's fonts if any, plus the package's Open Sans */
  fontsConf: string;
}

/**
 * Unpacks @sparticuz/chromium's binary, shared libraries and fonts into a directory of our
 * own, once per package version (the package's default spot, /tmp/chromium, is unversioned
 * and written in place, so a parallel test file could run a half-written binary). The
 * package unpacks into $TMPDIR, so it runs in a child process with TMPDIR set to a fresh
 * directory that is then renamed into place: atomic, and a racing test file's copy is
 * simply dropped. AWS_EXECUTION_ENV makes it unpack its Amazon Linux libraries too (NSS,
 * NSPR, expat), so the browser runs where those are not installed.
 */
async function unpackNpmChromium(entry: string): Promise<NpmChromium> {
  const packageJson = join(dirname(entry), "..", "..", "package.json");
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  const dir = join(tmpdir(), `kios-chromium-${version}-${process.getuid?.() ?? 0}`);
  const unpacked = (root: string): NpmChromium => ({
    executablePath: join(root, "chromium"),
    libDir: join(root, "al2023", "lib"),
    fontsConf: join(root, "fonts.conf"),
  });
  const done = unpacked(dir);
  const complete = (u: NpmChromium) =>
    [u.executablePath, join(u.libDir, "libnss3.so"), u.fontsConf].every((f) => existsSync(f));
  if (complete(done)) return done;
  // partly gone (a /tmp cleaner): unpack it again
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });

  const staging = mkdtempSync(`${dir}.tmp-`);
  try {
    const script =
      `const { default: c } = await import(${JSON.stringify(pathToFileURL(entry).href)});` +
      "process.stdout.write(await c.executablePath());";
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: staging, AWS_EXECUTION_ENV: "AWS_Lambda_nodejs20.x" },
    });
    const staged = unpacked(staging);
    if (stdout !== staged.executablePath || !existsSync(join(staged.libDir, "libnss3.so")))
      throw new Error(`${NPM_CHROMIUM} did not unpack into ${staging} (it said ${stdout})`);
    // written last: its presence in `dir` means everything else is there
    writeFileSync(
      staged.fontsConf,
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        "<fontconfig>",
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${join(dir, "fonts")}</dir>`,
        `  <cachedir>${join(dir, "fonts-cache")}</cachedir>`,
        "</fontconfig>",
        "",
      ].join("\n"),
    );
    try {
      renameSync(staging, dir);
    } catch (err) {
      // another test file unpacked it first: use theirs
      if (!complete(done)) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return done;
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const installed = installedChromium();
  if (installed) {
    console.info(`browser: ${installed}`);
    return chromium.launch({ executablePath: installed, headless: true, args: LAUNCH_ARGS });
  }

  const entry = npmChromiumEntry();
  if (!entry) throw new Error(browserMissing());
  const npm = await unpackNpmChromium(entry);
  const { default: npmChromium } = await import(NPM_CHROMIUM);
  const args = [
    ...npmChromium.args.filter((arg: string) => !NPM_ARGS_DROPPED.includes(arg)),
    ...LAUNCH_ARGS,
  ];
  const ldPath = [npm.libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(":");
  console.info(
    `browser: ${NPM_CHROMIUM} at ${npm.executablePath} (` +
      (process.env.CHROMIUM_PATH
        ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is missing)`
        : `CHROMIUM_PATH is unset and ${DEBIAN_CHROMIUM} is missing)`),
  );
  return chromium.launch({
    executablePath: npm.executablePath,
    headless: true,
    args: [...new Set(args)],
    env: { ...process.env, LD_LIBRARY_PATH: ldPath, FONTCONFIG_FILE: npm.fontsConf },
  });
}
