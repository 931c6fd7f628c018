import { readFile } from 'node:fs/promises';
import type { TLSConfig } from '@temporalio/client';
import type { TemporalTlsConfig } from './config.js';

/**
 * Maps `temporal.tls.*` to the SDK's TLS options, shared by the client Connection and the
 * worker's NativeConnection so both reach the cluster the same way.
 * Returns false when TLS is off; a cert without its key (or the reverse) fails closed.
 */
export async function temporalTlsOptions(
  tls: TemporalTlsConfig,
  read: (path: string) => Promise<Buffer> = (p) => readFile(p),
): Promise<TLSConfig | false> {
  if (!tls.enabled) return false;
  if (Boolean(tls.cert_file) !== Boolean(tls.key_file)) {
    throw new Error('temporal.tls.cert_file and temporal.tls.key_file must be set together (mutual TLS needs both)');
  }
  const options: TLSConfig = {};
  if (tls.server_name) options.serverNameOverride = tls.server_name;
  if (tls.ca_file) options.serverRootCACertificate = await readNamed(read, tls.ca_file, 'temporal.tls.ca_file');
  if (tls.cert_file && tls.key_file) {
    options.clientCertPair = {
      crt: await readNamed(read, tls.cert_file, 'temporal.tls.cert_file'),
      key: await readNamed(read, tls.key_file, 'temporal.tls.key_file'),
    };
  }
  return options;
}

async function readNamed(read: (path: string) => Promise<Buffer>, path: string, key: string): Promise<Buffer> {
  try {
    return await read(path);
  } catch (err) {
    throw new Error(`${key}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
