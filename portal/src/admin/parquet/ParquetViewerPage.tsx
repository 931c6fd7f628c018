export function ParquetViewerPage() {
  return <p>ParquetViewerPage</p>;
}
