export function PersonasPage() {
  return <p>PersonasPage</p>;
}
