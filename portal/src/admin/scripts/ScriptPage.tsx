export function ScriptPage() {
  return <p>ScriptPage</p>;
}
