export function SecretsPage() {
  return <p>SecretsPage</p>;
}
