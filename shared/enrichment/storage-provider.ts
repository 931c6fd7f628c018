/**
 * The storage provider (`storage.provider: objstore`, `storage.instance`; toolkits.md 5.7): what
 * backs an `s3` dataset. Its name is `bucket[/prefix]`; up to 1,000 objects under it are listed and
 * counted. It reads through the tools' view of the connection, so a catalog entry naming one of the
 * platform's own buckets learns nothing about it (refused like any tool call).
 */
import type { ToolConnection } from '../objstore/index.js';
import type { StorageInfo } from './types.js';
import { parseDatasetUrn } from './urn.js';

export interface StorageProvider {
  storage(urn: string, signal: AbortSignal): Promise<StorageInfo>;
}

const LISTED = 1000;

/** `bucket[/prefix]` of an s3 dataset name (a trailing `/` is added to a prefix so it names a folder). */
export function storageLocation(name: string): { bucket: string; prefix?: string } | undefined {
  const [bucket, ...rest] = name.split('/');
  if (!bucket) return undefined;
  const prefix = rest.join('/').replace(/\/+$/, '');
  return prefix ? { bucket, prefix: `${prefix}/` } : { bucket };
}

export function objstoreStorageProvider(connection: () => ToolConnection): StorageProvider {
  return {
    async storage(urn, signal) {
      const parsed = parseDatasetUrn(urn);
      const location = parsed?.platform === 's3' ? storageLocation(parsed.name) : undefined;
      if (!location) return { available: false, error: 'not an s3 dataset' };
      let conn: ToolConnection;
      try {
        conn = connection();
        const page = await conn.store.listObjects(location.bucket, { ...(location.prefix ? { prefix: location.prefix } : {}), maxKeys: LISTED, signal });
        return {
          available: true,
          ...location,
          connection: conn.name,
          object_count: page.objects.length,
          total_size: page.objects.reduce((sum, o) => sum + o.size, 0),
          ...(page.isTruncated ? { truncated: true } : {}),
        };
      } catch (error) {
        if (signal.aborted) throw error;
        return { available: false, ...location, error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
