/**
 * Defaults for `platform dev`: the embedded filesystem connection and its first bucket.
 */
import path from 'node:path';
import { platformConfigSchema, type ObjstoreInstanceConfig } from '../config/index.js';

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
