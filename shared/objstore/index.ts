/**
 * Object storage: the storage interface (S3 and filesystem drivers), the configured connections
 * and the tools' view of them (platform buckets reserved), the nine objstore_* tools, and what the
 * api's presigned-URL route needs.
 */
export type {
  BucketInfo,
  ByteRange,
  Clock,
  Conditions,
  CopyOptions,
  CopyResult,
  DeleteResult,
  GetOptions,
  GetResult,
  ListOptions,
  ListPage,
  Metadata,
  ObjectHead,
  ObjectStore,
  ObjectSummary,
  PresignMethod,
  PresignOptions,
  PresignResult,
  PutOptions,
  PutResult,
} from './types.js';
export { systemClock } from './types.js';
export { ObjstoreError, isObjstoreError, mapS3Error, toolErrorCodes, type ObjstoreErrorCode } from './errors.js';
export { S3ObjectStore, type S3StoreOptions } from './s3-driver.js';
export { FilesystemObjectStore, type FilesystemPresignOptions, type FilesystemStoreOptions } from './fs-driver.js';
export { prefixDirectory } from './fs-layout.js';
export {
  createObjectStore,
  createObjstoreConnections,
  type ObjstoreConnection,
  type ObjstoreConnections,
  type ObjstoreDeps,
} from './connections.js';
export { ObjstoreToolView, ToolConnection } from './tool-view.js';
export { objstoreTools, objstoreErrorResult } from './tools.js';
export { embeddedDefaultBucket, embeddedObjstoreInstance, embeddedObjstoreName, type EmbeddedObjstore } from './embedded.js';
export {
  ensurePlatformBucket,
  platformBucketKinds,
  platformBucketName,
  reservedBucketNames,
  type PlatformBucketKind,
} from './platform-buckets.js';
export { DigestStream, readAll, toReadable } from './streams.js';
export {
  bucketNameProblem,
  clampExpiresIn,
  clampMaxKeys,
  decodeMetadataValue,
  encodeContent,
  encodeMetadataValue,
  formatTimestamp,
  isPrintableAscii,
  isTextContent,
  readObjstoreEnv,
  type ObjstoreEnvOverrides,
} from './rules.js';
export { parsePresignedRequest, presignRoutePrefix, type ParsedPresignedRequest, type PresignVerdict } from './presign-token.js';
