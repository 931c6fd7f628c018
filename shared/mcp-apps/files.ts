import { constants, realpathSync, statSync } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reading an app's files from its `assets_path`, confined to it: a name is relative to the
 * directory, never absolute, never climbing out with `..`, and what it reaches after every
 * symlink is resolved must still be inside the directory (the directory itself is resolved once,
 * at load, so a symlinked assets_path is the operator's choice). Only regular files, each at most
 * MAX_APP_FILE_BYTES.
 */

/** One file of an app (the entry or a script, style sheet or image it references). */
export const MAX_APP_FILE_BYTES = 2 * 1024 * 1024;

/** A file of an app cannot be served; the message names it relative to assets_path, never the server's paths. */
export class AppFileError extends Error {}

function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' ? false : !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/** The absolute path of `name` under `root`, refusing names that are absolute or climb out. */
function lexicalPath(root: string, name: string): string {
  if (name === '' || path.isAbsolute(name) || /^[A-Za-z]:/.test(name) || name.includes('\0')) {
    throw new AppFileError(`${JSON.stringify(name)} is not a path relative to the app's directory`);
  }
  const target = path.resolve(root, name);
  if (!within(root, target)) throw new AppFileError(`${JSON.stringify(name)} is outside the app's directory`);
  return target;
}

const reason = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable (permission denied)' : code === 'ENOTDIR' ? 'is not a directory' : (code ?? 'cannot be read');
};

export class AppDirectory {
  private constructor(private readonly root: string) {}

  /**
   * The directory and its entry file, checked now so a deployment with a missing or unreadable
   * one does not start. Throws an Error whose message says what is wrong.
   */
  static open(dir: string, entry: string): AppDirectory {
    let root: string;
    try {
      root = realpathSync(dir);
      if (!statSync(root).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
    } catch (error) {
      const notDirectory = (error as NodeJS.ErrnoException).code === 'ENOTDIR';
      throw new Error(notDirectory ? `${dir} is not a directory` : `directory ${dir} ${reason(error)}`, { cause: error });
    }
    const app = new AppDirectory(root);
    app.checkSync(entry);
    return app;
  }

  /** The load-time check of one file: the same confinement as read(), synchronously. */
  private checkSync(name: string): void {
    const target = lexicalPath(this.root, name);
    let real: string;
    try {
      real = realpathSync(target);
    } catch (error) {
      throw new AppFileError(`entry file ${name} ${reason(error)}`);
    }
    if (!within(this.root, real)) throw new AppFileError(`entry file ${name} resolves outside the app's directory (symlink)`);
    const stat = statSync(real);
    if (!stat.isFile()) throw new AppFileError(`entry file ${name} is not a regular file`);
    if (stat.size > MAX_APP_FILE_BYTES) throw new AppFileError(`entry file ${name} is larger than ${MAX_APP_FILE_BYTES} bytes`);
  }

  /** The bytes of `name` (relative to the directory), confined as the header says. */
  async read(name: string): Promise<Buffer> {
    const target = lexicalPath(this.root, name);
    let real: string;
    try {
      real = await realpath(target);
    } catch (error) {
      throw new AppFileError(`${name} ${reason(error)}`);
    }
    if (!within(this.root, real)) throw new AppFileError(`${name} resolves outside the app's directory (symlink)`);
    // O_NOFOLLOW: a symlink swapped in after the check above is refused, not followed.
    let handle;
    try {
      handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      throw new AppFileError(`${name} ${reason(error)}`);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new AppFileError(`${name} is not a regular file`);
      if (stat.size > MAX_APP_FILE_BYTES) throw new AppFileError(`${name} is larger than ${MAX_APP_FILE_BYTES} bytes`);
      // Read until the end or past the limit: a file grown since the stat is still bounded.
      const chunks: Buffer[] = [];
      let length = 0;
      for (;;) {
        const chunk = Buffer.alloc(64 * 1024);
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, length);
        if (bytesRead === 0) break;
        chunks.push(chunk.subarray(0, bytesRead));
        length += bytesRead;
        if (length > MAX_APP_FILE_BYTES) throw new AppFileError(`${name} is larger than ${MAX_APP_FILE_BYTES} bytes`);
      }
      return Buffer.concat(chunks, length);
    } finally {
      await handle.close();
    }
  }
}
