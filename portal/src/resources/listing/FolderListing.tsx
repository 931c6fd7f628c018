import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { apiFolderPath, type FolderRef } from '../address';

/** The open folder's listing (placeholder: the first page, by name). */
export function FolderListing(props: { folder: FolderRef | undefined; invalidAddress: boolean; selectedId: string | undefined; onSelect(id: string): void }) {
  const path = props.folder ? apiFolderPath(props.folder) : undefined;
  const list = useQuery({
    queryKey: ['list', path],
    enabled: path !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/resources', { params: { query: { path, direct: 'true' } } })),
  });
  if (props.invalidAddress) return <section className="listing">This address names no folder.</section>;
  return (
    <section className="listing" aria-label="Files">
      <ul>
        {list.data?.items.map((r) => (
          <li key={r.id}>
            <button type="button" aria-pressed={props.selectedId === r.id} onClick={() => props.onSelect(r.id)}>
              {r.display_name}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
