/**
 * What each engine supplies to the scratch catalog (catalog.ts holds what both share: checks of
 * names and locations, the emptiness rule, the probe of checkScratch).
 */
import type { ObjstoreConnection } from '../../objstore/index.js';
import type { ScratchCatalog, StorageLocation } from './types.js';

/** The platform's storage as the scratch catalog reads it: the managed-resources connection and its bucket. */
export interface ScratchStorage {
  connection: ObjstoreConnection;
  /** The platform bucket tables are registered over (the managed-resources bucket). */
  bucket: string;
}

/** The steps of the probe, for the reason of a failure. */
export type ProbeStep = 'preflight' | 'schema' | 'create' | 'register' | 'read' | 'view';

/** The catalog's operations, done by the engine after catalog.ts checked their input, and what the probe needs. */
export interface ScratchDialect
  extends Pick<
    ScratchCatalog,
    | 'engine'
    | 'catalog'
    | 'schema'
    | 'relation'
    | 'partitionsRelation'
    | 'createExternalTable'
    | 'createFileTable'
    | 'registerPartition'
    | 'unregisterPartition'
    | 'listPartitions'
    | 'createOrReplaceView'
    | 'dropView'
    | 'dropTable'
  > {
  /** Why this engine cannot read the platform's storage at all (its driver), or undefined. */
  storageGap(storage: ScratchStorage): string | undefined;
  /** Checks the catalog is of a kind that can hold scratch tables; throws ScratchError with the reason. */
  preflight(): Promise<void>;
  ensureSchema(): Promise<void>;
  /** Runs a read of the platform's own writing and answers its rows. */
  read(select: string): Promise<unknown[][]>;
  /** The reason a probe step failed, naming the setting to change; undefined to report the engine's message. */
  explainFailure(step: ProbeStep, error: unknown): string | undefined;
  /** Where `location` is, as the engine names it (an s3:// URI, a directory). */
  locate(location: StorageLocation): string;
}
