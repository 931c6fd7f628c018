export function ConnectionsPage() {
  return <p>ConnectionsPage</p>;
}
