import { useEffect, useState } from 'react';

/**
 * An object URL for fetched bytes (a thumbnail tile, a picture), revoked when the bytes change or
 * the component goes. Pictures are fetched rather than given the route as `src`: a new version
 * under the same address must show at once (a document reuses an image it already loaded from an
 * address), and a refusal is shown in the server's words.
 */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}
