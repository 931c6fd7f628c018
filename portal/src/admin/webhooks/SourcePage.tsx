export function SourcePage() {
  return <p>SourcePage</p>;
}
