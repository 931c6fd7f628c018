import { readFile } from 'node:fs/promises';

/** An operator resource from `resources.custom` (spec document 1). */
export interface CustomResource {
  uri: string;
  name: string;
  description?: string;
  mime_type: string;
  content?: string;
  content_file?: string;
}

export class ResourceNotFoundError extends Error {}

/** Inline content, or the file read afresh on every request so operators can edit it live. */
export async function readCustomResource(resource: CustomResource): Promise<string> {
  if (resource.content !== undefined) return resource.content;
  if (resource.content_file === undefined) throw new ResourceNotFoundError(`resource ${resource.uri} has no content`);
  try {
    return await readFile(resource.content_file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ResourceNotFoundError(`resource ${resource.uri}: content file unavailable (${code ?? 'read error'})`);
  }
}
