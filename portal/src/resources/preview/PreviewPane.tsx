/** The preview pane (placeholder: the selected resource's id). */
export function PreviewPane({ resourceId }: { resourceId: string | undefined }) {
  return <aside className="preview-pane" aria-label="Preview">{resourceId ?? 'Select a file to preview it.'}</aside>;
}
