/**
 * Defaults for `platform dev` and the platform's own buckets.
 */
import path from 'node:path';
import { platformConfigSchema, type ObjstoreInstanceConfig } from '../config/index.js';
import type { ObjstoreConnection } from './connections.js';

export const embeddedObjstoreName = 'local';
export const embeddedDefaultBucket = 'default';

export interface EmbeddedObjstore {
  /** Instance key under `toolkits.objstore`. */
  name: typeof embeddedObjstoreName;
  instance: ObjstoreInstanceConfig;
  /** Pass as `seedBuckets` to createObjstoreConnections: created on first use. */
  seedBuckets: Record<string, readonly string[]>;
}

/**
 * The instance `platform dev` adds when no objstore instance is configured: driver filesystem
 * under `<dataDir>/objstore`, with bucket `default` created on first use so a newcomer can put
 * an object straight away. Every other key keeps its schema default.
 */
export function embeddedObjstoreInstance(dataDir: string): EmbeddedObjstore {
  const parsed = platformConfigSchema.parse({
    toolkits: { objstore: { [embeddedObjstoreName]: { driver: 'filesystem', root: path.join(dataDir, 'objstore') } } },
  });
  return {
    name: embeddedObjstoreName,
    instance: parsed.toolkits.objstore[embeddedObjstoreName]!,
    seedBuckets: { [embeddedObjstoreName]: [embeddedDefaultBucket] },
  };
}

/** The buckets the platform itself stores bytes in. */
export type PlatformBucketKind = 'resources' | 'webhooks' | 'artifacts';

/** A platform bucket's name on a connection: its bucket_prefix (if any) then the kind. */
export function platformBucketName(connection: Pick<ObjstoreConnection, 'bucketPrefix'>, kind: PlatformBucketKind): string {
  return `${connection.bucketPrefix ?? ''}${kind}`;
}

/** Returns the platform bucket's name, creating the bucket on first use. */
export async function ensurePlatformBucket(connection: ObjstoreConnection, kind: PlatformBucketKind): Promise<string> {
  const bucket = platformBucketName(connection, kind);
  connection.checkBucket(bucket);
  await connection.ensureBucket(bucket);
  return bucket;
}
