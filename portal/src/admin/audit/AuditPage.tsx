export function AuditPage() {
  return <p>AuditPage</p>;
}
