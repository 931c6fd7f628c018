export function SourcesPage() {
  return <p>SourcesPage</p>;
}
