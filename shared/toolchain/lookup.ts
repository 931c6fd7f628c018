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
  /** What `go install` builds. */
  goPackage: string;
  /** Human hint shown when nothing works. */
  otherwise: string;
}

/**
 * Temporal CLI is pinned to v1.5.1: later tags carry a `replace` directive in go.mod, which
 * `go install pkg@version` refuses, so they cannot be built this way.
 */
export const toolSpecs: Record<ToolName, ToolSpec> = {
  temporal: {
    name: 'temporal',
    envVar: 'TEMPORAL_CLI_PATH',
    goPackage: 'github.com/temporalio/cli/cmd/temporal@v1.5.1',
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
  /** Not found; `go install` into `cacheBin` is the next step. */
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

export function missingToolMessage(name: ToolName, detail: string): string {
  const spec = toolSpecs[name];
  return (
    `The ${name} binary was not found (${detail}). Set ${spec.envVar} to its absolute path, put it on PATH, ` +
    `or run \`scripts/install-tools.sh ${name}\` (needs Go; runs \`go install ${spec.goPackage}\` into the tool cache); ` +
    `otherwise ${spec.otherwise}.`
  );
}
