/** A file's content-type icon (the thumbnail of a file that keeps one, and the preview of other types). */
import { File, FileArchive, FileAudio, FileCode, FileImage, FileSpreadsheet, FileText, FileVideo, Presentation, type LucideIcon } from 'lucide-react';
import { iconFamily, type IconFamily } from './content-kind';

const icons: Record<IconFamily, { icon: LucideIcon; label: string }> = {
  text: { icon: FileText, label: 'Text document' },
  code: { icon: FileCode, label: 'Source file' },
  image: { icon: FileImage, label: 'Image' },
  table: { icon: FileSpreadsheet, label: 'Table' },
  slides: { icon: Presentation, label: 'Presentation' },
  archive: { icon: FileArchive, label: 'Archive' },
  audio: { icon: FileAudio, label: 'Audio' },
  video: { icon: FileVideo, label: 'Video' },
  pdf: { icon: FileText, label: 'PDF document' },
  file: { icon: File, label: 'File' },
};

/** The icon, named for assistive technology by its family ("Archive icon"). */
export function FileIcon({ resource, size = 64 }: { resource: { content_type: string; file_name: string }; size?: number }) {
  const { icon: Icon, label } = icons[iconFamily(resource)];
  return (
    <span className="file-icon" role="img" aria-label={`${label} icon`}>
      <Icon aria-hidden size={size} strokeWidth={1.25} />
    </span>
  );
}
