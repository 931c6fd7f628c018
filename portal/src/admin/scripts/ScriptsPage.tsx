export function ScriptsPage() {
  return <p>ScriptsPage</p>;
}
