/** The path of the stamp file, relative to the package root. */
export const stampFile: string;
/** The stamp of the sources under `root` as they are now. */
export function sourceStamp(root: string): string;
/** Whether dist/ under `root` was compiled from the sources as they are now. */
export function compiledBuildIsFresh(root: string): boolean;
