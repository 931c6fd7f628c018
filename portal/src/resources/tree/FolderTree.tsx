import { NavLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { folderAddress, type FolderRef } from '../address';

/** The folder tree (placeholder: the libraries at the root). */
export function FolderTree({ open }: { open: FolderRef | undefined }) {
  const facets = useQuery({ queryKey: ['facets', ''], queryFn: async () => unwrap(await api.GET('/api/v1/resources/facets', { params: { query: { depth: 1 } } })) });
  return (
    <nav className="folder-tree" aria-label="Folders">
      <ul>
        {facets.data?.folders.map((f) => (
          <li key={f.path}>
            <NavLink to={folderAddress({ library: f.library, path: '' })} aria-current={open?.library === f.library ? 'page' : undefined}>
              {f.library}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
