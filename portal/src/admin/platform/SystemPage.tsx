export function SystemPage() {
  return <p>SystemPage</p>;
}
