import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, messageOf, unwrap } from '../api/client';

/** One resource's details (placeholder: its name). */
export function ResourceDetailsPage({ section }: { section: 'resources' | 'admin' }) {
  const id = useParams().id!;
  const resource = useQuery({ queryKey: ['resource', id], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}', { params: { path: { id } } })) });
  if (resource.isError) return <p role="alert">{messageOf(resource.error)}</p>;
  return (
    <article className="resource-details" data-section={section}>
      <h1>{resource.data?.display_name ?? '…'}</h1>
    </article>
  );
}
