/**
 * The buckets the platform keeps for itself — managed-resource versions, webhook segments,
 * artifacts — and their reservation: no objstore_* tool and no presigned URL reaches them.
 *
 * The reserved names are derived, never kept by hand: every kind below under every connection's
 * bucket_prefix, and portal.s3_bucket. Adding a kind reserves it everywhere. The names are
 * reserved on every connection the tools use, not only on the one that holds them: two
 * connections may reach the same storage under different names (an endpoint or root written two
 * ways, a proxy, a symlink, a bind mount), which the platform cannot reliably tell, so it assumes
 * they may (fail closed).
 */
import type { PlatformConfig } from '../config/index.js';
import type { ObjstoreConnection } from './connections.js';
import { ObjstoreError } from './errors.js';

/** Every kind of bucket the platform stores bytes in. */
export const platformBucketKinds = ['resources', 'webhooks', 'artifacts'] as const;
export type PlatformBucketKind = (typeof platformBucketKinds)[number];

/** A platform bucket's name on a connection: its bucket_prefix (if any) then the kind. */
export function platformBucketName(connection: { readonly bucketPrefix?: string | undefined }, kind: PlatformBucketKind): string {
  return `${connection.bucketPrefix ?? ''}${kind}`;
}

/** Returns the platform bucket's name, creating the bucket on first use. */
export async function ensurePlatformBucket(connection: ObjstoreConnection, kind: PlatformBucketKind): Promise<string> {
  const bucket = platformBucketName(connection, kind);
  connection.checkBucket(bucket);
  await connection.ensureBucket(bucket);
  return bucket;
}

/** Every bucket name the platform keeps for itself, on any connection (see the file comment). */
export function reservedBucketNames(config: PlatformConfig): ReadonlySet<string> {
  const names = new Set<string>();
  for (const instance of Object.values(config.toolkits.objstore)) {
    for (const kind of platformBucketKinds) names.add(platformBucketName({ bucketPrefix: instance.bucket_prefix }, kind));
  }
  if (config.portal.s3_bucket) names.add(config.portal.s3_bucket);
  return names;
}

/** The refusal of a reserved bucket: the same for every tool, route and persona. */
export function reservedBucketError(bucket: string): ObjstoreError {
  return new ObjstoreError('AccessDenied', `bucket ${bucket} is reserved for the platform's own storage`, {
    hint:
      'The platform keeps its own data in this bucket (managed resources, webhook segments, artifacts); no objstore tool or ' +
      'presigned URL reaches it, for any persona. Reach managed resources through manage_resource or the resource routes (/api/v1/resources).',
  });
}
