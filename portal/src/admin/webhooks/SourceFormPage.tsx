export function SourceFormPage(_props: { mode: 'create' | 'edit' }) {
  return <p>SourceFormPage</p>;
}
